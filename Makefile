# ptxvm: a virtual NVIDIA GPU for the CPU.
#
#   make            build/ptxvm, build/libptxvm.a, build/libptxvm.so, build/lib/libcuda.so.1
#   make demo       what ptxvm does, on the examples
#   make test       build and run the tests, a line per group as it finishes;
#                   ends with "N passed, N failed"
#   make test-full  the same with the slow sweeps (every builtin module through
#                   the command line and ptxas, every tests/cuda-host program
#                   in both runtime linkages)
#   make test-jit   the kernel groups again on the compiling tier (PTXVM_JIT=1; -j2 for two at once)
#   make asan       the tests under AddressSanitizer + UndefinedBehaviorSanitizer
#   make tsan       the concurrent groups (atom, sass, exec, hostile, threads) under ThreadSanitizer
#   make fuzz       the libFuzzer targets: parse+check, and through to a launch (FUZZ_SECONDS=60 each)
#   make bench      checker throughput against ptxas, execution against C, the CUDA driver's cost
#   make fixtures   regenerate tests/ptx from tests/cuda (needs nvcc)
#   make corpus     regenerate tests/corpus (the toolkit headers' device code) and its ptxas verdicts
#   make ptxas-verify        confirm test expectations and fmt output with ptxas
#   make ptxas-agree-regen   re-record ptxas verdicts (needs ptxas)
#   make install PREFIX=/usr/local

CC      ?= cc
OPT     ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wno-unused-parameter
ifneq ($(WERROR),)
WARN    += -Werror
endif
CFLAGS  += -std=gnu11 -D_GNU_SOURCE -ffp-contract=off $(OPT) $(WARN) -fPIC
LDLIBS  += -lpthread -lm -ldl

# Optional: PNG images in `ptxvm run` (libpng-dev); without it they are refused.
PNG_LIBS := $(shell pkg-config --libs libpng 2>/dev/null)
ifneq ($(PNG_LIBS),)
CLI_CFLAGS := -DPTXVM_HAVE_PNG $(shell pkg-config --cflags libpng)
endif
# Optional: compressed PTX in nvcc's fat binaries (src/cuda/fatbin.c): zstd,
# nvcc's default codec (libzstd-dev), and LZ4, --compress-mode=speed
# (liblz4-dev); without one, such an entry is refused naming the library.
# Whatever links src/cuda/fatbin.o links $(FATBIN_LIBS) too.
ifneq ($(shell pkg-config --exists libzstd 2>/dev/null && echo y),)
FATBIN_CFLAGS += -DPTXVM_HAVE_ZSTD $(shell pkg-config --cflags libzstd)
FATBIN_LIBS   += $(shell pkg-config --libs libzstd)
endif
ifneq ($(shell pkg-config --exists liblz4 2>/dev/null && echo y),)
FATBIN_CFLAGS += -DPTXVM_HAVE_LZ4 $(shell pkg-config --cflags liblz4)
FATBIN_LIBS   += $(shell pkg-config --libs liblz4)
endif
PREFIX  ?= /usr/local
B       ?= build

LIB_SRC := $(wildcard src/util/*.c src/isa/*.c src/front/*.c src/check/*.c \
                      src/write/*.c src/lower/*.c src/mem/*.c src/exec/*.c src/atom/*.c src/host/*.c \
                      src/sass/*.c src/surf/*.c src/tex/*.c src/builtins/*.c src/tmap/*.c src/jit/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(B)/obj/%.o)
# The compiling tier embeds the interpreter's sources and the list of the
# library symbols they use (src/jit/jit-embed.sh).
CORE_OBJ := $(filter-out $(B)/obj/src/jit/%,$(LIB_OBJ))
LIB_OBJ += $(B)/obj/gen/jit-embed.o
CLI_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(wildcard src/cli/*.c))
DEFS    := $(wildcard src/isa/*.def)
# The CUDA driver library: the driver API over the C API (docs/CUDA.md).
CUDA_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(wildcard src/cuda/*.c))

all: $(B)/ptxvm $(B)/libptxvm.a $(B)/libptxvm.so $(B)/lib/libcuda.so.1 $(B)/lib/libcuda.so

$(B)/obj/%.o: %.c $(wildcard src/*/*.h src/*/*.inc src/cuda/*.def src/exec/*.def src/lower/*.def) include/ptxvm.h $(DEFS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(B)/gen/jit-embed.c: $(CORE_OBJ) src/jit/jit-embed.sh
	@mkdir -p $(dir $@)
	src/jit/jit-embed.sh "$(CC)" $(B)/gen $(B)/obj/src/exec/exec.o $(CORE_OBJ)
$(B)/gen/jit-syms.h: $(B)/gen/jit-embed.c
	@:
$(B)/obj/gen/jit-embed.o: $(B)/gen/jit-embed.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@
$(B)/obj/src/jit/jit.o: $(B)/gen/jit-syms.h
$(B)/obj/src/jit/jit.o: CFLAGS += -I$(B)/gen -I.

$(B)/libptxvm.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# -z nodelete: the launch workers' threads (src/exec/pool.c) wait in the
# library's code for the next launch, so a dlclose must not unmap it.
$(B)/libptxvm.so: $(LIB_OBJ)
	$(CC) -shared -Wl,-z,nodelete -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(B)/obj/src/cli/%.o: CFLAGS += $(CLI_CFLAGS)

# Only the cu* entry points are exported (src/cuda/exports.map).
$(B)/lib/libcuda.so.1: $(CUDA_OBJ) $(LIB_OBJ) src/cuda/exports.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libcuda.so.1 -Wl,-z,nodelete -Wl,--version-script=src/cuda/exports.map -o $@ \
		$(CUDA_OBJ) $(LIB_OBJ) $(LDFLAGS) $(FATBIN_LIBS) $(LDLIBS)

$(B)/lib/libcuda.so: $(B)/lib/libcuda.so.1
	ln -sf libcuda.so.1 $@

$(B)/ptxvm: $(CLI_OBJ) $(B)/libptxvm.a
	$(CC) -o $@ $^ $(LDFLAGS) $(PNG_LIBS) $(LDLIBS)

# ---- tests ---------------------------------------------------------------
TEST_BIN := $(B)/tests/runner

TEST_SRC := tests/runner.c $(wildcard tests/t_*.c) tests/texmodel.c

$(B)/obj/src/cuda/fatbin.o: CFLAGS += $(FATBIN_CFLAGS)

$(B)/tests/runner: $(TEST_SRC) tests/test.h tests/texmodel.h $(B)/libptxvm.a $(B)/obj/src/cuda/fatbin.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(TEST_SRC) $(B)/obj/src/cuda/fatbin.o $(B)/libptxvm.a $(LDFLAGS) $(FATBIN_LIBS) $(LDLIBS)

# examples/host.c is built by the tests with the library's compiler and flags
TEST_ENV = CC="$(CC)" HOST_LDFLAGS="$(LDFLAGS)"

test: all $(TEST_BIN)
	@$(TEST_ENV) tests/run.sh $(B)

test-full: all $(TEST_BIN)
	@$(TEST_ENV) tests/run.sh $(B) full

# The kernel groups again on the compiling tier (PTXVM_JIT=1): the same
# reference results, faults and reports.  Each program they load is
# compiled once (about 0.01 s an instruction at -O2, and 0.2 s) and
# cached in $(B)/jit-cache; the groups run side by side with make -j.
# Every kernel of a group must compile: a kernel left to the interpreter
# fails the group.  Not here: sandbox, whose kernels past PTXVM_JIT_MAX_INS
# the tier refuses by design; wgmma, whose sweep of every shape compiles
# hundreds of kernels of about 10 s each (forms runs each wgmma form
# compiled); and the groups that launch no kernel.
JIT_GROUPS ?= forms kernels exec devrt surf surfk surfm texk tma mma mmasp hostile
test-jit: $(addprefix test-jit-,$(JIT_GROUPS))
test-jit-%: all $(TEST_BIN)
	@PTXVM_JIT=1 PTXVM_LOG=1 PTXVM_CACHE_DIR=$(B)/jit-cache $(TEST_BIN) . $* 2>$(B)/jit-$*.log || \
		{ cat $(B)/jit-$*.log; exit 1; }
	@if grep "compiling tier is off" $(B)/jit-$*.log; then echo "FAIL test-jit: $*: not compiled"; exit 1; fi

asan:
	$(MAKE) B=build-asan CC=clang OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" test

# The groups that run host threads side by side, under ThreadSanitizer,
# every file instrumented (ops.inc builds one fma version under it): the
# atomic unit, SASS, multi-worker launches, the watchdog and printf FIFO,
# and host threads sharing a device.
TSAN_GROUPS ?= atom sass exec hostile threads devrt san
tsan:
	$(MAKE) B=build-tsan CC=clang OPT="-O1 -g -fsanitize=thread" LDFLAGS=-fsanitize=thread build-tsan/tests/runner
	@for g in $(TSAN_GROUPS); do \
		echo "tsan: $$g"; TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/tests/tsan.supp $(TSAN_OPTIONS)" \
			build-tsan/tests/runner . $$g || exit 1; \
	done

# libFuzzer, two targets, FUZZ_SECONDS each: fuzz-check (parser, checker,
# writer on arbitrary bytes) and fuzz-exec (those, then load and launch the
# first kernel), under ASan and UBSan, seeded with every PTX file of the
# tests and the valid modules of the agreement corpora, with a dictionary
# made from the ISA tables (tests/fuzz/prep.py).  New inputs accumulate in
# build-fuzz/corpus-*; a crash leaves its input in build-fuzz/.
FUZZ_SECONDS ?= 60
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
# Guest declarations may ask for up to 1 TiB of device memory (taken from the
# host lazily, or refused when the host has none): only what is touched counts.
FUZZ_RUN = -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
	-malloc_limit_mb=1100000 -print_final_stats=1 -dict=build-fuzz/prep/ptx.dict -artifact_prefix=build-fuzz/
FUZZ_ENV = ASAN_OPTIONS=allocator_may_return_null=1
fuzz:
	$(MAKE) B=build-fuzz CC=clang OPT="-O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN)" \
		LDFLAGS="$(FUZZ_SAN)" build-fuzz/libptxvm.a
	for t in check exec; do \
		clang -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) -o build-fuzz/fuzz-$$t tests/fuzz/fuzz_$$t.c \
			build-fuzz/libptxvm.a -lpthread -lm || exit 1; \
	done
	python3 tests/fuzz/prep.py build-fuzz/prep
	mkdir -p build-fuzz/corpus-check build-fuzz/corpus-exec
	$(FUZZ_ENV) build-fuzz/fuzz-check $(FUZZ_RUN) build-fuzz/corpus-check build-fuzz/prep/seeds
	$(FUZZ_ENV) build-fuzz/fuzz-exec $(FUZZ_RUN) build-fuzz/corpus-exec build-fuzz/prep/seeds

demo: all
	@examples/demo.sh $(B)

bench: all
	@tests/bench/bench.sh $(B)

fixtures:
	tests/gen-fixtures.sh

corpus:
	python3 tests/corpus/gen.py

# Where ptxas exists: the tests' expectations and fmt's output, confirmed by ptxas.
ptxas-verify: all
	python3 tests/check/ptxas-verify.py $(B)

ptxas-agree-regen:
	python3 tests/ptxas-agree/gen.py --record

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(B)/ptxvm $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(B)/libptxvm.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/libptxvm.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/ptxvm.h $(DESTDIR)$(PREFIX)/include/
	install -d $(DESTDIR)$(PREFIX)/lib/ptxvm
	install -m 755 $(B)/lib/libcuda.so.1 $(DESTDIR)$(PREFIX)/lib/ptxvm/
	ln -sf libcuda.so.1 $(DESTDIR)$(PREFIX)/lib/ptxvm/libcuda.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|'"$$(sed -n 's/#define PTXVM_VERSION "\(.*\)"/\1/p' include/ptxvm.h)"'|' \
		ptxvm.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/ptxvm.pc

clean:
	rm -rf build build-asan build-fuzz build-tsan

.PHONY: all test test-full test-jit demo asan tsan fuzz bench fixtures corpus ptxas-verify ptxas-agree-regen install clean
