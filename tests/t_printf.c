/* t_printf.c: device printf formatting (src/exec/printf.c).
 *
 * Argument buffers are packed here by hand the way nvcc packs them (each
 * argument at an offset aligned to its size; see tests/ptx/printf.ptx), and
 * every expected string is written out, not computed.
 */
#include "test.h"
#include "../src/exec/printf.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- argument buffers ------------------------------------------------- */
typedef struct Pack {
	uint8_t b[1024];
	size_t n;
} Pack;

static void pk_raw(Pack *k, const void *v, size_t sz)
{
	k->n = (k->n + sz - 1) / sz * sz;
	memcpy(k->b + k->n, v, sz);
	k->n += sz;
}

/* types: i int (char/short promoted), l 64-bit integer, d double (float
 * promoted), p pointer given as unsigned long long */
static Pack pack(const char *types, ...)
{
	Pack k = { .n = 0 };
	va_list ap;

	va_start(ap, types);
	for (const char *t = types; *t; t++) {
		if (*t == 'i') {
			int32_t v = va_arg(ap, int);
			pk_raw(&k, &v, 4);
		} else if (*t == 'l') {
			int64_t v = va_arg(ap, long long);
			pk_raw(&k, &v, 8);
		} else if (*t == 'd') {
			double v = va_arg(ap, double);
			pk_raw(&k, &v, 8);
		} else {
			uint64_t v = va_arg(ap, unsigned long long);
			pk_raw(&k, &v, 8);
		}
	}
	va_end(ap);
	return k;
}

/* ---- guest strings ---------------------------------------------------- */
#define A_HELLO  0x1000ull      /* "hello" */
#define A_EMPTY  0x2000ull      /* "" */
#define A_ENDLESS 0x4000ull     /* 'x' for as long as asked */
#define A_GREEDY 0x5000ull      /* a reader that ignores max */

static int reads;               /* calls to the reader */

static bool read_str(void *ctx, uint64_t addr, Buf *out, size_t max)
{
	const char *s;

	reads++;
	if (addr == A_HELLO)
		s = "hello";
	else if (addr == A_EMPTY)
		s = "";
	else if (addr == A_ENDLESS) {
		for (size_t i = 0; i < max; i++)
			buf_putc(out, 'x');
		return true;
	} else if (addr == A_GREEDY) {
		buf_puts(out, "hello world");
		return true;
	} else
		return false;
	size_t n = strlen(s);
	buf_put(out, s, n < max ? n : max);
	return true;
}

/* ---- checks ----------------------------------------------------------- */
static void show(char *dst, size_t cap, const char *s, size_t n)
{
	size_t j = 0;
	for (size_t i = 0; i < n && j + 5 < cap; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 32 && c < 127)
			dst[j++] = (char)c;
		else
			j += (size_t)snprintf(dst + j, cap - j, "\\x%02x", c);
	}
	dst[j] = 0;
}

/* One case: fmt over pk (NULL: a null buffer) gives want (wlen bytes) and
 * returns wret. */
static void expect_n(const char *fmt, const Pack *pk, const char *want,
		     size_t wlen, int wret)
{
	Buf out = {0};
	int r = dev_printf(&out, fmt, pk ? pk->b : NULL, pk ? pk->n : 0,
			   read_str, NULL);
	if (r == wret && out.len == wlen && (!wlen || !memcmp(out.p, want, wlen))) {
		passed++;
	} else {
		char g[256], w[256];
		show(g, sizeof g, out.p ? out.p : "", out.len);
		show(w, sizeof w, want, wlen);
		fail("printf \"%s\": got \"%s\" (%d), want \"%s\" (%d)", fmt, g,
		     r, w, wret);
	}
	buf_free(&out);
}

static void expect(const char *fmt, const Pack *pk, const char *want, int wret)
{
	expect_n(fmt, pk, want, strlen(want), wret);
}

static void ok(bool c, const char *what)
{
	if (c)
		passed++;
	else
		fail("printf: %s", what);
}

/* Integer conversions, length modifiers and the promotions nvcc applies. */
static void integers(void)
{
	Pack k;

	expect("no arguments at all\n", NULL, "no arguments at all\n", 0);
	k = pack("i", 42);
	expect("d=%d\n", &k, "d=42\n", 1);
	k = pack("ii", 7, -7);
	expect("i=%i neg=%d\n", &k, "i=7 neg=-7\n", 2);
	k = pack("i", -1);
	expect("%u", &k, "4294967295", 1);
	expect("%d", &k, "-1", 1);
	k = pack("iii", 255, 255, 255);
	expect("x=%x X=%X o=%o", &k, "x=ff X=FF o=377", 3);
	k = pack("i", INT_MIN);
	expect("%d", &k, "-2147483648", 1);
	k = pack("lll", -5LL, -1LL, 0xdeadbeefcafeLL);
	expect("%lld %llu %llx", &k, "-5 18446744073709551615 deadbeefcafe", 3);
	expect("%ld %lu %lX", &k, "-5 18446744073709551615 DEADBEEFCAFE", 3);
	k = pack("l", LLONG_MIN);
	expect("%lli", &k, "-9223372036854775808", 1);
	k = pack("l", 0x1122334455667788LL);
	expect("%llo", &k, "104421464212531473610", 1);
	/* sizes beyond the guide's h/l/ll: as written, taking nothing, as on
	 * an H200 (tests/hw/golden/h200.printf.txt) */
	k = pack("lll", -3LL, 4LL, 5LL);
	expect("%zd %ju %tx", &k, "%zd %ju %tx", 0);
	k = pack("i", 7);
	expect("%zd %d", &k, "%zd 7", 1);

	/* h and hh narrow the promoted int, as the host's printf does */
	k = pack("i", 70000);
	expect("%hd", &k, "4464", 1);
	k = pack("i", -1);
	expect("%hd", &k, "-1", 1);
	expect("%hu", &k, "65535", 1);
	expect("%hhx", &k, "ff", 1);
	expect("%hho", &k, "377", 1);
	k = pack("i", 300);
	expect("%hhu", &k, "44", 1);
	k = pack("i", 200);
	expect("%hhd", &k, "-56", 1);
	k = pack("i", 0x12345678);
	expect("%hX", &k, "5678", 1);

	/* the layout of printf_widths: two ints, then 8-byte longs at 8, 16 */
	k = pack("iill", -1, 300, -1000000LL, 3000000000LL);
	expect("[%hd][%hhu][%ld][%lu]", &k, "[-1][44][-1000000][3000000000]", 4);
	/* an int then a long long: the long long is aligned to 8 */
	k = pack("il", 1, 2LL);
	ok(k.n == 16, "pack aligns a long long after an int to 8");
	expect("%d %lld", &k, "1 2", 2);
	/* chars promoted to int */
	k = pack("iii", 'a', 'b', 3);
	expect("%c%c%d", &k, "ab3", 3);

	/* flags, width, precision */
	k = pack("iiiii", 42, 42, 42, 42, 42);
	expect("[%8d][%-8d][%08d][%+d][% d]", &k,
	       "[      42][42      ][00000042][+42][ 42]", 5);
	k = pack("i", -3);
	expect("[%+5d][%-+5d][%05d][% d]", &k, "[   -3][%-+5d][%05d][% d]", -2);
	k = pack("iiii", -3, -3, -3, -3);
	expect("[%+5d][%-+5d][%05d][% d]", &k, "[   -3][-3   ][-0003][-3]", 4);
	k = pack("iii", 255, 8, 255);
	expect("[%#x][%#o][%#X]", &k, "[0xff][010][0XFF]", 3);
	k = pack("iii", 0, 0, 0);
	expect("[%#x][%#o][%.0d]", &k, "[0][0][]", 3);
	k = pack("iii", 42, 42, 42);
	expect("[%.5d][%8.3d][%-08d]", &k, "[00042][     042][42      ]", 3);
	k = pack("ii", 42, 42);
	expect("[%08.3d][%#.5x]", &k, "[     042][0x0002a]", 2);
	k = pack("ii", 42, 7);
	expect("[% +d][%+ d]", &k, "[+42][+7]", 2);
	k = pack("i", 5);
	expect("[%-05d]", &k, "[5    ]", 1);

	/* %c: the low byte of the int; a NUL prints as one byte */
	k = pack("ii", 'A', 'B');
	expect("[%5c][%-5c]", &k, "[    A][B    ]", 2);
	k = pack("i", 0x141);
	expect("%c", &k, "A", 1);
	k = pack("i", 0);
	expect_n("<%c>", &k, "<\0>", 3, 1);
	k = pack("i", 'z');
	expect("%lc", &k, "z", 1);
}

static double bits(uint64_t u)
{
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

static void floats(void)
{
	Pack k;

	k = pack("d", 1.5);
	expect("f=%f", &k, "f=1.500000", 1);
	expect("%e", &k, "1.500000e+00", 1);
	expect("%E", &k, "1.500000E+00", 1);
	expect("%g", &k, "1.5", 1);
	expect("%G", &k, "1.5", 1);
	expect("%a", &k, "0x1.8p+0", 1);
	expect("%A", &k, "0X1.8P+0", 1);
	expect("%F", &k, "1.500000", 1);
	expect("%lf", &k, "1.500000", 1);
	expect("%Lf", &k, "%Lf", 0);        /* as on an H200 */
	/* the guide: "%hf" still takes a double */
	expect("%hf", &k, "1.500000", 1);
	/* float arguments arrive promoted to double */
	k = pack("d", (double)1.1f);
	expect("%.10f", &k, "1.1000000238", 1);
	expect("%f", &k, "1.100000", 1);
	k = pack("dd", 3.14159, 3.14159);
	expect("[%10.3f][%-10.2f]", &k, "[     3.142][3.14      ]", 2);
	k = pack("dd", 2.5, 3.5);
	expect("[%.0f][%.0f]", &k, "[2][4]", 2);
	k = pack("d", 12345.678);
	expect("%+.4e", &k, "+1.2346e+04", 1);
	expect("%12.5g", &k, "       12346", 1);
	expect("%-12.3E|", &k, "1.235E+04   |", 1);
	expect("%012.2f", &k, "000012345.68", 1);
	k = pack("dd", 3.0, 1.0);
	expect("[%#.0f][%#g]", &k, "[3.][1.00000]", 2);
	k = pack("d", 0.0001);
	expect("%g", &k, "0.0001", 1);
	k = pack("d", 0.00001);
	expect("%g", &k, "1e-05", 1);
	k = pack("ddd", 1e-40, 1e300, -0.0);
	expect("tiny=%e big=%g neg zero=%f", &k,
	       "tiny=1.000000e-40 big=1e+300 neg zero=-0.000000", 3);
	k = pack("ddd", bits(0x7ff0000000000000ull), bits(0xfff0000000000000ull),
		 bits(0xfff8000000000000ull));
	/* 0.0f/0.0f on the GPU is the canonical NaN 0x7fffffff: positive */
	expect("inf=%f -inf=%f nan=%f", &k, "inf=inf -inf=-inf nan=-nan", 3);
	expect("%F %E %G", &k, "INF -INF -NAN", 3);
	k = pack("d", bits(0x7fffffffe0000000ull));
	expect("%f", &k, "nan", 1);
	k = pack("dd", 1.0 / 0.0, 1.0 / 0.0);
	expect("[%08f][%+f]", &k, "[     inf][+inf]", 2);
	k = pack("d", 1e308);
	expect("%.0e", &k, "1e+308", 1);
	k = pack("d", 5e-324);
	expect("%a", &k, "0x0.0000000000001p-1022", 1);
	k = pack("d", 1.0);
	expect("%.3a", &k, "0x1.000p+0", 1);
	/* a pointer-then-int-then-double record, as in report() */
	k = pack("pid", A_HELLO, 3, 1.5);
	ok(k.n == 24, "pack puts the double of (ptr, int, double) at 16");
	expect("%s[%d] = %.2f\n", &k, "hello[3] = 1.50\n", 3);
	k = pack("id", 1, 2.0);
	expect("%d %g", &k, "1 2", 2);
}

static void stars(void)
{
	Pack k;

	k = pack("iiiiid", 6, 42, 6, 42, 2, 3.14159);
	ok(k.n == 32, "pack puts the double after five ints at 24");
	/* a '*' precision is printed as written and takes nothing, as on an
	 * H200 (tests/hw/golden/h200.printf.txt); a '*' width works */
	expect("[%*d][%-*d][%.*f]", &k, "[    42][42    ][%.*f]", 4);
	k = pack("ii", -4, 7);
	expect("[%*d]", &k, "[7   ]", 2);
	k = pack("iid", 8, 3, 3.14159);
	expect("[%*.*f]", &k, "[%*.*f]", 0);
	k = pack("id", -1, 1.5);
	expect("[%.*f]", &k, "[%.*f]", 0);
	/* a zero '*' width is not the '0' flag */
	k = pack("ii", 0, 5);
	expect("[%*d]", &k, "[5]", 2);
	k = pack("ii", 4, 5);
	expect("[%0*d]", &k, "[0005]", 2);
	k = pack("ip", 3, A_HELLO);
	expect("[%.*s]", &k, "[%.*s]", 0);
	/* '*' then an 8-byte value: the value is aligned to 8 */
	k = pack("il", 5, 9LL);
	expect("[%*lld]", &k, "[    9]", 2);
}

static void strings(void)
{
	Pack k;

	k = pack("p", A_HELLO);
	expect("s=%s", &k, "s=hello", 1);
	expect("[%8s]", &k, "[   hello]", 1);
	expect("[%-8s]", &k, "[hello   ]", 1);
	expect("[%.3s]", &k, "[hel]", 1);
	expect("[%.0s]", &k, "[]", 1);
	expect("[%.9s]", &k, "[hello]", 1);
	expect("[%3s]", &k, "[hello]", 1);
	expect("[%ls]", &k, "[hello]", 1);
	k = pack("p", A_EMPTY);
	expect("[%s]", &k, "[]", 1);
	/* NULL: glibc's "(null)", or nothing under a precision below 6 */
	k = pack("p", 0ULL);
	expect("[%s]", &k, "[(null)]", 1);
	expect("[%10s]", &k, "[    (null)]", 1);
	expect("[%.3s]", &k, "[]", 1);
	expect("[%.6s]", &k, "[(null)]", 1);
	/* the reader is told the precision */
	reads = 0;
	k = pack("p", A_ENDLESS);
	expect("[%.5s]", &k, "[xxxxx]", 1);
	ok(reads == 1, "one read per %s");
	/* a reader that ignores max is held to it */
	k = pack("p", A_GREEDY);
	expect("[%.2s]", &k, "[he]", 1);
	/* unreadable: written as in the format, the call fails */
	k = pack("pi", 0xdead0000ULL, 5);
	expect("[%s] %d", &k, "[%s] 5", -2);
	expect("[%-8.2s] %d", &k, "[%-8.2s] 5", -2);
	/* no reader at all */
	{
		Buf out = {0};
		k = pack("p", A_HELLO);
		int r = dev_printf(&out, "<%s>", k.b, k.n, NULL, NULL);
		ok(r == -2 && out.len == 4 && !memcmp(out.p, "<%s>", 4),
		   "%s without a reader prints the conversion and fails");
		buf_free(&out);
	}
	/* pointers: as glibc prints them */
	k = pack("p", 0x1234ULL);
	expect("p=%p", &k, "p=0x1234", 1);
	expect("[%10p]", &k, "[    0x1234]", 1);
	expect("[%-10p]", &k, "[0x1234    ]", 1);
	k = pack("p", 0xffffffffffffffffULL);
	expect("%p", &k, "0xffffffffffffffff", 1);
	k = pack("p", 0ULL);
	expect("%p", &k, "(nil)", 1);
	/* %n takes its pointer and prints nothing; nothing is written */
	k = pack("pi", A_HELLO, 5);
	reads = 0;
	expect("a%nb%d", &k, "ab5", 2);
	ok(reads == 0, "%n does not touch guest memory");
	k = pack("ip", 1, 0x10ULL);
	expect("%d%hhn|", &k, "1|", 2);
}

static void percent_and_unknown(void)
{
	Pack k;

	expect("percent=%%\n", NULL, "percent=%\n", 0);
	expect("100%%%%", NULL, "100%%", 0);
	expect("[%5%][%-5%]", NULL, "[%][%]", 0);
	/* unknown conversions print as written and take no argument */
	k = pack("i", 5);
	expect("%y %d", &k, "%y 5", 1);
	expect("%5.2k|%d", &k, "%5.2k|5", 1);
	expect("%m%d", &k, "%m5", 1);
	expect("%S%C%d", &k, "%S%C5", 1);
	expect("%hlld%d", &k, "%hlld5", 1);
	expect("%qd%d", &k, "%qd5", 1);
	expect("%$d%d", &k, "%$d5", 1);
	/* an unterminated conversion prints as written */
	expect("abc%", NULL, "abc%", 0);
	expect("abc%-+ #0", NULL, "abc%-+ #0", 0);
	expect("abc%12.7ll", NULL, "abc%12.7ll", 0);
	expect("abc%*", NULL, "abc%*", 0);
	expect("", NULL, "", 0);
	/* NULL format: -1, nothing printed */
	{
		Buf out = {0};
		buf_puts(&out, "pre");
		int r = dev_printf(&out, NULL, NULL, 0, read_str, NULL);
		ok(r == -1 && out.len == 3, "NULL format returns -1 and prints nothing");
		buf_free(&out);
	}
	/* output is appended */
	{
		Buf out = {0};
		buf_puts(&out, "pre:");
		Pack q = pack("i", 1);
		int r = dev_printf(&out, "%d\n", q.b, q.n, read_str, NULL);
		ok(r == 1 && out.len == 6 && !strcmp(out.p, "pre:1\n"),
		   "output is appended to the buffer");
		buf_free(&out);
	}
}

static void limits(void)
{
	Pack k = { .n = 0 };
	char fmt[256], want[256];
	char *f = fmt, *w = want;

	/* 33 conversions: the 33rd prints as written, 32 returned */
	for (int i = 0; i < 33; i++) {
		int32_t v = i;
		pk_raw(&k, &v, 4);
		f += sprintf(f, "%%d,");
		w += i < 32 ? sprintf(w, "%d,", i) : sprintf(w, "%%d,");
	}
	expect(fmt, &k, want, 32);
	/* '*' counts: 31 conversions leave no room for %*d's two */
	k.n = 0;
	f = fmt;
	w = want;
	for (int i = 0; i < 31; i++) {
		int32_t v = 1;
		pk_raw(&k, &v, 4);
		f += sprintf(f, "%%d");
		w += sprintf(w, "1");
	}
	int32_t two[2] = { 3, 4 };
	pk_raw(&k, &two[0], 4);
	pk_raw(&k, &two[1], 4);
	sprintf(f, "[%%*d][%%d]");
	sprintf(w, "[%%*d][3]");
	expect(fmt, &k, want, 32);

	/* buffer too short: what cannot be fed prints as written, -2 */
	k = pack("ii", 1, 2);
	k.n = 4;
	expect("%d %d|", &k, "1 %d|", -2);
	k = pack("d", 1.0);
	k.n = 7;
	expect("%f|%%", &k, "%f|%", -2);
	/* once starved, no later argument is taken, even one that would fit */
	k = pack("i", 1);
	expect("%lld %d", &k, "%lld %d", -2);
	k = pack("i", 1);
	expect("%*d %d", &k, "%*d %d", -2);
	k = pack("ii", 9, 1);
	k.n = 6;
	expect("%*.*f", &k, "%*.*f", 0);
	expect("%d", NULL, "%d", -2);
	expect("%s", NULL, "%s", -2);
	expect("%%%d%%", NULL, "%%d%", -2);
	/* more bytes than conversions is fine */
	k = pack("iii", 1, 2, 3);
	expect("%d", &k, "1", 1);
	/* non-NULL buffer of length 0 */
	{
		Buf out = {0};
		uint8_t one = 0;
		int r = dev_printf(&out, "%c", &one, 0, read_str, NULL);
		ok(r == -2 && out.len == 2, "zero-length buffer starves %c");
		buf_free(&out);
	}
}

static void hostile(void)
{
	Buf out = {0};
	Pack k;
	int r;

	/* huge widths and precisions are capped at PRINTF_MAX_FIELD */
	k = pack("i", 1);
	r = dev_printf(&out, "%999999999d", k.b, k.n, read_str, NULL);
	ok(r == 1 && out.len == PRINTF_MAX_FIELD && out.p[out.len - 1] == '1'
	   && out.p[0] == ' ', "%999999999d is capped");
	out.len = 0;
	r = dev_printf(&out, "%-99999999999999999999999d|", k.b, k.n, read_str, NULL);
	ok(r == 1 && out.len == PRINTF_MAX_FIELD + 1 && out.p[0] == '1',
	   "an overflowing width is capped");
	out.len = 0;
	r = dev_printf(&out, "%.999999999d", k.b, k.n, read_str, NULL);
	ok(r == 1 && out.len == PRINTF_MAX_FIELD && out.p[0] == '0',
	   "%.999999999d is capped");
	out.len = 0;
	k = pack("d", 1e308);
	r = dev_printf(&out, "%.99999999f", k.b, k.n, read_str, NULL);
	ok(r == 1 && out.len == 309 + 1 + PRINTF_MAX_FIELD && out.p[0] == '1',
	   "%.99999999f of 1e308 is capped");
	out.len = 0;
	k = pack("ii", INT_MIN, 1);
	r = dev_printf(&out, "%*d|", k.b, k.n, read_str, NULL);
	ok(r == 2 && out.len == PRINTF_MAX_FIELD + 1 && out.p[0] == '1',
	   "a '*' width of INT_MIN is capped and left-justified");
	out.len = 0;
	k = pack("ii", INT_MAX, 1);
	r = dev_printf(&out, "%*d", k.b, k.n, read_str, NULL);
	ok(r == 2 && out.len == PRINTF_MAX_FIELD, "a '*' width of INT_MAX is capped");
	buf_free(&out);

	/* one call's output is capped at PRINTF_MAX_OUT */
	k = pack("p", A_ENDLESS);
	r = dev_printf(&out, "%s", k.b, k.n, read_str, NULL);
	ok(r == 1 && out.len == PRINTF_MAX_OUT, "a %s of PRINTF_MAX_OUT bytes fits");
	buf_free(&out);
	buf_puts(&out, "pre");
	k = pack("pp", A_ENDLESS, A_ENDLESS);
	r = dev_printf(&out, "%s%s", k.b, k.n, read_str, NULL);
	ok(r == -2 && out.len == 3 + PRINTF_MAX_OUT,
	   "output over PRINTF_MAX_OUT is cut and fails");
	buf_free(&out);

	/* random formats over random buffers: no crash, sane results */
	static const char alpha[] = "%%%%%-+ #0*.123456789hlLzjtqdiouxXcspneEfFgGaAy%\n";
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	bool sane = true;
	for (int it = 0; it < 20000 && sane; it++) {
		char fmt[40];
		uint8_t buf[64];
		size_t fl, nb;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		fl = (seed >> 33) % (sizeof fmt - 1);
		for (size_t i = 0; i < fl; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			fmt[i] = alpha[(seed >> 33) % (sizeof alpha - 1)];
		}
		fmt[fl] = 0;
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		nb = (seed >> 33) % (sizeof buf + 1);
		for (size_t i = 0; i < sizeof buf; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			buf[i] = (uint8_t)(seed >> 56);
		}
		/* some small pointers the reader knows */
		if (nb >= 8 && (seed & 1)) {
			uint64_t a = A_HELLO;
			memcpy(buf, &a, 8);
		}
		out.len = 0;
		r = dev_printf(&out, fmt, nb ? buf : NULL, nb, read_str, NULL);
		if (r < -2 || r > PRINTF_MAX_ARGS || out.len > PRINTF_MAX_OUT)
			sane = false;
	}
	ok(sane, "random formats and buffers give sane results");
	buf_free(&out);
}

void test_printf(const char *root)
{
	(void)root;
	integers();
	floats();
	stars();
	strings();
	percent_and_unknown();
	limits();
	hostile();
}
