/* attr.c: the device's attributes, numbered as CUDA's CUdevice_attribute
 * (1 .. DEVICE_ATTR_MAX), from its target's compute capability and its
 * workers (what runs CTAs side by side: the multiprocessor count).  One
 * table: the driver library's cuDeviceGetAttribute reads it through
 * ptxvm_device_attribute, and kernels' cudaDeviceGetAttribute through the
 * copy each device keeps (host_attrs, Launch.attrs). */
#include "host.h"
#include "../exec/exec.h"

#include <string.h>

/* What a streaming multiprocessor of the target holds: shared memory per
 * SM and the most one block may opt in to, threads and blocks per SM (the
 * CUDA Programming Guide's table of compute capabilities). */
typedef struct SmLimits { unsigned cc, smem_sm, smem_optin, threads_sm, blocks_sm; } SmLimits;
static const SmLimits sm_limits[] = {
	{ 50, 65536, 49152, 2048, 32 },  { 52, 98304, 49152, 2048, 32 },  { 53, 65536, 49152, 2048, 32 },
	{ 60, 65536, 49152, 2048, 32 },  { 61, 98304, 49152, 2048, 32 },  { 62, 65536, 49152, 2048, 32 },
	{ 70, 98304, 98304, 2048, 32 },  { 72, 98304, 98304, 2048, 32 },  { 75, 65536, 65536, 1024, 16 },
	{ 80, 167936, 166912, 2048, 32 }, { 86, 102400, 101376, 1536, 16 }, { 87, 167936, 166912, 2048, 32 },
	{ 89, 102400, 101376, 1536, 24 }, { 90, 233472, 232448, 2048, 32 }, { 100, 233472, 232448, 2048, 32 },
	{ 103, 233472, 232448, 2048, 32 }, { 110, 233472, 232448, 2048, 32 }, { 120, 102400, 101376, 1536, 32 },
};

static SmLimits limits(unsigned cc)
{
	SmLimits l = sm_limits[0];
	for (size_t i = 0; i < sizeof sm_limits / sizeof *sm_limits; i++)
		if (sm_limits[i].cc <= cc)
			l = sm_limits[i];
	/* ptxvm runs at most what sm_90 allows one CTA */
	if (l.smem_optin > 232448)
		l.smem_optin = 232448;
	return l;
}

/* Every CUdevice_attribute: the target's value, 0 for features ptxvm does
 * not have; false for a number that is none. */
static bool attribute(int cc, int sms, int a, int *v)
{
	SmLimits l = limits((unsigned)cc);
	switch (a) {
	case 1: *v = 1024; break;                       /* MAX_THREADS_PER_BLOCK */
	case 2: case 3: *v = 1024; break;               /* MAX_BLOCK_DIM_X, Y */
	case 4: *v = 64; break;                         /* MAX_BLOCK_DIM_Z */
	case 5: *v = 0x7fffffff; break;                 /* MAX_GRID_DIM_X */
	case 6: case 7: *v = 65535; break;              /* MAX_GRID_DIM_Y, Z */
	case 8: *v = 49152; break;                      /* MAX_SHARED_MEMORY_PER_BLOCK */
	case 9: *v = 65536; break;                      /* TOTAL_CONSTANT_MEMORY */
	case 10: *v = 32; break;                        /* WARP_SIZE */
	case 11: *v = 0x7fffffff; break;                /* MAX_PITCH */
	case 12: *v = 65536; break;                     /* MAX_REGISTERS_PER_BLOCK */
	case 13: *v = 1980000; break;                   /* CLOCK_RATE (kHz), %clock's nominal rate */
	case 14: *v = 512; break;                       /* TEXTURE_ALIGNMENT */
	case 15: *v = 1; break;                         /* GPU_OVERLAP */
	case 16: *v = sms; break;                      /* MULTIPROCESSOR_COUNT: the workers */
	case 17: *v = 0; break;                         /* KERNEL_EXEC_TIMEOUT */
	case 18: *v = 0; break;                         /* INTEGRATED */
	case 19: *v = 1; break;                         /* CAN_MAP_HOST_MEMORY */
	case 20: *v = 0; break;                         /* COMPUTE_MODE: default */
	case 21: *v = 131072; break;                    /* MAXIMUM_TEXTURE1D_WIDTH */
	case 22: *v = 131072; break;                    /* MAXIMUM_TEXTURE2D_WIDTH */
	case 23: *v = 65536; break;                     /* MAXIMUM_TEXTURE2D_HEIGHT */
	case 24: case 25: case 26: *v = 16384; break;   /* MAXIMUM_TEXTURE3D_* */
	case 27: case 28: *v = 32768; break;            /* MAXIMUM_TEXTURE2D_LAYERED_WIDTH, HEIGHT */
	case 29: *v = 2048; break;                      /* MAXIMUM_TEXTURE2D_LAYERED_LAYERS */
	case 30: *v = 512; break;                       /* SURFACE_ALIGNMENT */
	case 31: *v = 1; break;                         /* CONCURRENT_KERNELS */
	case 32: *v = 0; break;                         /* ECC_ENABLED */
	case 33: case 34: *v = 0; break;                /* PCI_BUS_ID, PCI_DEVICE_ID */
	case 35: *v = 0; break;                         /* TCC_DRIVER */
	case 36: *v = 2619000; break;                   /* MEMORY_CLOCK_RATE (kHz) */
	case 37: *v = 5120; break;                      /* GLOBAL_MEMORY_BUS_WIDTH */
	case 38: *v = 50 << 20; break;                  /* L2_CACHE_SIZE */
	case 39: *v = (int)l.threads_sm; break;         /* MAX_THREADS_PER_MULTIPROCESSOR */
	case 40: *v = 2; break;                         /* ASYNC_ENGINE_COUNT */
	case 41: *v = 1; break;                         /* UNIFIED_ADDRESSING */
	case 42: *v = 32768; break;                     /* MAXIMUM_TEXTURE1D_LAYERED_WIDTH */
	case 43: *v = 2048; break;                      /* MAXIMUM_TEXTURE1D_LAYERED_LAYERS */
	case 44: *v = 1; break;                         /* CAN_TEX2D_GATHER */
	case 45: case 46: *v = 32768; break;            /* MAXIMUM_TEXTURE2D_GATHER_* */
	case 47: case 48: *v = 8192; break;             /* MAXIMUM_TEXTURE3D_*_ALTERNATE */
	case 49: *v = 32768; break;
	case 50: *v = 0; break;                         /* PCI_DOMAIN_ID */
	case 51: *v = 32; break;                        /* TEXTURE_PITCH_ALIGNMENT */
	case 52: case 53: *v = 32768; break;            /* MAXIMUM_TEXTURECUBEMAP_WIDTH, _LAYERED_WIDTH */
	case 54: *v = 2046; break;                      /* MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS */
	case 55: *v = 32768; break;                     /* MAXIMUM_SURFACE1D_WIDTH */
	case 56: *v = 131072; break;                    /* MAXIMUM_SURFACE2D_WIDTH */
	case 57: *v = 65536; break;                     /* MAXIMUM_SURFACE2D_HEIGHT */
	case 58: case 59: case 60: *v = 16384; break;   /* MAXIMUM_SURFACE3D_* */
	case 61: *v = 32768; break;                     /* MAXIMUM_SURFACE1D_LAYERED_WIDTH */
	case 62: *v = 2048; break;
	case 63: case 64: *v = 32768; break;            /* MAXIMUM_SURFACE2D_LAYERED_WIDTH, HEIGHT */
	case 65: *v = 2048; break;
	case 66: case 67: *v = 32768; break;            /* MAXIMUM_SURFACECUBEMAP_WIDTH, _LAYERED_WIDTH */
	case 68: *v = 2046; break;
	case 69: *v = 1 << 28; break;                   /* MAXIMUM_TEXTURE1D_LINEAR_WIDTH */
	case 70: *v = 131072; break;                    /* MAXIMUM_TEXTURE2D_LINEAR_WIDTH */
	case 71: *v = 65000; break;                     /* MAXIMUM_TEXTURE2D_LINEAR_HEIGHT */
	case 72: *v = 2097120; break;                   /* MAXIMUM_TEXTURE2D_LINEAR_PITCH */
	case 73: case 74: *v = 32768; break;            /* MAXIMUM_TEXTURE2D_MIPMAPPED_* */
	case 75: *v = cc / 10; break;                 /* COMPUTE_CAPABILITY_MAJOR */
	case 76: *v = cc % 10; break;
	case 77: *v = 32768; break;                     /* MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH */
	case 78: *v = 1; break;                         /* STREAM_PRIORITIES_SUPPORTED */
	case 79: case 80: *v = 1; break;                /* GLOBAL_L1_CACHE_SUPPORTED, LOCAL_ */
	case 81: *v = (int)l.smem_sm; break;            /* MAX_SHARED_MEMORY_PER_MULTIPROCESSOR */
	case 82: *v = 65536; break;                     /* MAX_REGISTERS_PER_MULTIPROCESSOR */
	case 83: *v = 1; break;                         /* MANAGED_MEMORY */
	case 84: case 85: *v = 0; break;                /* MULTI_GPU_BOARD, _GROUP_ID */
	case 86: *v = 0; break;                         /* HOST_NATIVE_ATOMIC_SUPPORTED */
	case 87: *v = 2; break;                         /* SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO */
	case 88: *v = 0; break;                         /* PAGEABLE_MEMORY_ACCESS */
	case 89: *v = 1; break;                         /* CONCURRENT_MANAGED_ACCESS */
	case 90: *v = 1; break;                         /* COMPUTE_PREEMPTION_SUPPORTED */
	case 91: *v = 0; break;                         /* CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM */
	case 92: case 93: case 94: *v = 0; break;       /* stream memory operations (v1) */
	case 95: *v = 1; break;                         /* COOPERATIVE_LAUNCH */
	case 96: *v = 0; break;                         /* COOPERATIVE_MULTI_DEVICE_LAUNCH */
	case 97: *v = (int)l.smem_optin; break;         /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
	case 98: *v = 0; break;                         /* CAN_FLUSH_REMOTE_WRITES */
	case 99: *v = 1; break;                         /* HOST_REGISTER_SUPPORTED */
	case 100: *v = 0; break;                        /* PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES */
	case 101: *v = 0; break;                        /* DIRECT_MANAGED_MEM_ACCESS_FROM_HOST */
	case 102: *v = 0; break;                        /* VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED */
	case 103: case 104: case 105: *v = 0; break;    /* HANDLE_TYPE_* */
	case 106: *v = (int)l.blocks_sm; break;         /* MAX_BLOCKS_PER_MULTIPROCESSOR */
	case 107: *v = 0; break;                        /* GENERIC_COMPRESSION_SUPPORTED */
	case 108: *v = 0; break;                        /* MAX_PERSISTING_L2_CACHE_SIZE */
	case 109: *v = 0; break;                        /* MAX_ACCESS_POLICY_WINDOW_SIZE */
	case 110: *v = 0; break;                        /* GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED */
	case 111: *v = cc >= 80 ? 1024 : 0; break;      /* RESERVED_SHARED_MEMORY_PER_BLOCK */
	case 112: *v = 0; break;                        /* SPARSE_CUDA_ARRAY_SUPPORTED */
	case 113: *v = 0; break;                        /* READ_ONLY_HOST_REGISTER_SUPPORTED */
	case 114: *v = 0; break;                        /* TIMELINE_SEMAPHORE_INTEROP_SUPPORTED */
	case 115: *v = 1; break;                        /* MEMORY_POOLS_SUPPORTED */
	case 116: case 117: case 118: *v = 0; break;    /* GPU_DIRECT_RDMA_* */
	case 119: *v = 0; break;                        /* MEMPOOL_SUPPORTED_HANDLE_TYPES */
	case 120: *v = cc >= 90; break;                 /* CLUSTER_LAUNCH: up to 16 CTAs, one worker each cluster */
	case 121: *v = 0; break;                        /* DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED */
	case 122: case 123: *v = 0; break;              /* stream memory operations */
	case 124: *v = 0; break;                        /* DMA_BUF_SUPPORTED */
	case 125: *v = 0; break;                        /* IPC_EVENT_SUPPORTED */
	case 126: *v = 1; break;                        /* MEM_SYNC_DOMAIN_COUNT */
	case 127: *v = 0; break;                        /* TENSOR_MAP_ACCESS_SUPPORTED */
	case 128: *v = 0; break;                        /* HANDLE_TYPE_FABRIC_SUPPORTED */
	case 129: *v = 0; break;                        /* UNIFIED_FUNCTION_POINTERS */
	case 130: *v = 0; break;                        /* NUMA_CONFIG: none */
	case 131: *v = -1; break;                       /* NUMA_ID */
	case 132: *v = 0; break;                        /* MULTICAST_SUPPORTED */
	case 133: *v = 0; break;                        /* MPS_ENABLED */
	case 134: *v = -1; break;                       /* HOST_NUMA_ID */
	case 135: *v = 0; break;                        /* D3D12_CIG_SUPPORTED */
	case 136: case 137: *v = 0; break;              /* MEM_DECOMPRESS_* */
	case 138: *v = 0; break;                        /* VULKAN_CIG_SUPPORTED */
	case 139: case 140: *v = 0; break;              /* GPU_PCI_DEVICE_ID, _SUBSYSTEM_ID */
	case 141: case 142: case 143: *v = 0; break;    /* HOST_NUMA_* */
	case 144: case 145: case 146: *v = 0; break;    /* HOST_MEMORY_POOLS, HOST_VMM, HOST_ALLOC_DMA_BUF */
	case 147: *v = 0; break;                        /* ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED */
	default: return false;
	}
	return true;
}


bool host_attr_target(const char *arch, unsigned *cc)
{
	static const struct { const char *name; unsigned sm; } targets[] = {
#define TG(name, sm, suffix, ptx) { name, sm },
#include "../isa/targets.def"
#undef TG
	};
	if (!arch)
		arch = "sm_90";
	for (size_t i = 0; i < sizeof targets / sizeof *targets; i++)
		if (!strcmp(targets[i].name, arch)) {
			*cc = targets[i].sm;
			return true;
		}
	return false;
}

void host_attrs(unsigned cc, unsigned sms, int *out)
{
	out[0] = 0;
	for (int a = 1; a <= DEVICE_ATTR_MAX; a++)
		if (!attribute((int)cc, (int)sms, a, &out[a]))
			out[a] = 0;
}
