/* texmodel.h: the reference model of texture sampling (texmodel.c),
 * written from the rules of docs/TEXTURES.md without the sampler under
 * test, and the textures it describes made on a device; shared by the
 * texture tests. */
#ifndef PTXVM_TEXMODEL_H
#define PTXVM_TEXMODEL_H

#include "../include/ptxvm.h"
#include <stddef.h>
#include <stdint.h>

enum { K1D, K2D, K3D, K1DL, K2DL, KCUBE, KCUBEL, KLIN, KPITCH, NKIND };

enum { AW, AC, AM, AB, AOGL };  /* wrap, clamp, mirror, border (CUDA's values), clamp_ogl */

/* A texture: its texels level by level, and its sampling. */
typedef struct Ref {
	int kind, fmt, ch, es;
	int nl;                         /* mipmap levels */
	int w[16], h[16], d[16];
	int layers;                     /* cubemaps: 6 per cube */
	uint8_t *lv[16];                /* texels of each level: rows of pitch[l] bytes */
	size_t pitch[16];
	int addr[3], filter, mipfilter, norm, readnorm, srgb, seamless, aniso;
	float border[4], bias, minlod, maxlod;
} Ref;

/* A lookup as the kernel makes it. */
typedef struct Q {
	int geom;                       /* 0 1d, 1 2d, 2 3d, 3 a1d, 4 a2d, 5 cube, 6 acube */
	int icoord, mip;                /* mip: 0 none, 1 level, 2 grad */
	int gather;                     /* -1, or the component */
	int has_depth, has_off;
	uint32_t layer, c[3], lod, dx[3], dy[3], depth;
	int32_t off[3];
} Q;

/* The device's copy of a reference texture. */
typedef struct Dev {
	uint64_t tex, arr, mip, dptr;
} Dev;

extern const char *const kind_name[NKIND], *const fmt_name[12];
extern const int fmt_size[12];

uint32_t tm_rnd(void);
float fbits(uint32_t b);
uint32_t bitsf(float f);
int small_int(int format);
int signed_fmt(int format);
/* The result is floating point. */
int fres(const Ref *R);
/* The expected result of a lookup: four components, f32 bits or integers. */
void ref_look(const Ref *R, const Q *q, uint32_t out[4]);
/* A double rounded to f16, nearest even. */
uint16_t to_half(double x);

/* The shape of a kind (one level), and of a mipmap chain of nl levels. */
void ref_shape(Ref *R, int kind);
void ref_mip_shape(Ref *R, int kind, int nl);
/* Random texels whose weighted sums are exact in double. */
void ref_fill(Ref *R);
void ref_free(Ref *R);
float nice_f32(void);
/* The texels copied to the device and a texture object sampling as the
 * reference says: 0, or the texture's refusal. */
ptxvm_result ref_make(ptxvm_device *dv, const Ref *R, Dev *D);
void ref_unmake(ptxvm_device *dv, Dev *D);

#endif
