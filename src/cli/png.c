/* png.c: PNG files for ptxvm run's surface arguments, through libpng when
 * the build found it (PTXVM_HAVE_PNG); without it, a clear message.
 *
 * An array of 8- or 16-bit unsigned elements with 1, 2 or 4 channels is a
 * gray, gray+alpha or RGBA image whose rows are the array's rows, slice
 * after slice and layer after layer.  Samples are copied exactly: a PNG
 * must have the array's channels and bit depth (palette images are
 * expanded); 16-bit samples are big-endian in the file.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef PTXVM_HAVE_PNG
#include <png.h>

/* libpng reports an error by calling this and jumping back to the setjmp
 * of the caller; the message becomes part of ours.  Every variable the
 * caller changes after its setjmp and uses after the jump is volatile, so
 * that what it allocated is freed on the way out. */
typedef struct PngErr {
	char msg[200];
} PngErr;

static void png_fail(png_structp png, png_const_charp msg)
{
	PngErr *e = png_get_error_ptr(png);
	snprintf(e->msg, sizeof e->msg, "%s", msg);
	png_longjmp(png, 1);
}

static void png_warn(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;      /* warnings (such as a bad CRC in an ancillary chunk) are not errors */
}

static int color_type(unsigned channels)
{
	return channels == 1 ? PNG_COLOR_TYPE_GRAY : channels == 2 ? PNG_COLOR_TYPE_GRAY_ALPHA
								   : PNG_COLOR_TYPE_RGBA;
}

static const char *color_name(int ct)
{
	switch (ct) {
	case PNG_COLOR_TYPE_GRAY: return "gray";
	case PNG_COLOR_TYPE_GRAY_ALPHA: return "gray+alpha";
	case PNG_COLOR_TYPE_RGB: return "RGB";
	case PNG_COLOR_TYPE_RGBA: return "RGBA";
	case PNG_COLOR_TYPE_PALETTE: return "palette";
	}
	return "unknown";
}

int image_read_png(const char *path, unsigned w, unsigned rows, unsigned channels, unsigned bits, uint8_t *dst)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "ptxvm run: cannot open '%s'\n", path);
		return -1;
	}
	PngErr err = { "out of memory" };
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &err, png_fail, png_warn);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	png_bytep *volatile rowp = NULL;
	int rc = -1;
	if (!png || !info || setjmp(png_jmpbuf(png))) {
		fprintf(stderr, "ptxvm run: '%s' is not a readable PNG file: %s\n", path, err.msg);
		goto done;
	}
	png_init_io(png, f);
	png_read_info(png, info);
	if (png_get_color_type(png, info) == PNG_COLOR_TYPE_PALETTE)
		png_set_palette_to_rgb(png);
	png_read_update_info(png, info);
	int ct = png_get_color_type(png, info);
	unsigned depth = png_get_bit_depth(png, info);
	png_uint_32 pw = png_get_image_width(png, info), ph = png_get_image_height(png, info);
	if (ct != color_type(channels) || depth != bits || pw != w || ph != rows) {
		fprintf(stderr, "ptxvm run: '%s' is a %ux%u %s image of %u bits; the array needs %ux%u %s of %u "
			"bits\n", path, (unsigned)pw, (unsigned)ph, color_name(ct), depth, w, rows,
			color_name(color_type(channels)), bits);
		goto done;
	}
	if (bits == 16)
		png_set_swap(png);      /* the array is little-endian */
	rowp = malloc((rows ? rows : 1) * sizeof *rowp);
	if (!rowp)
		png_error(png, "out of memory");
	size_t stride = (size_t)w * channels * bits / 8;
	for (unsigned y = 0; y < rows; y++)
		rowp[y] = dst + (size_t)y * stride;
	png_read_image(png, rowp);     /* what follows the image is not read */
	rc = 0;
done:
	png_destroy_read_struct(&png, &info, NULL);
	free(rowp);
	fclose(f);
	return rc;
}

int image_write_png(const char *path, unsigned w, unsigned rows, unsigned channels, unsigned bits,
		    const uint8_t *src)
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "ptxvm run: cannot write '%s'\n", path);
		return -1;
	}
	PngErr err = { "out of memory" };
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &err, png_fail, png_warn);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	png_bytep *volatile rowp = NULL;
	int rc = -1;
	if (!png || !info || setjmp(png_jmpbuf(png))) {
		fprintf(stderr, "ptxvm run: cannot write '%s' as PNG: %s\n", path, err.msg);
		goto done;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, w, rows, (int)bits, color_type(channels), PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	if (bits == 16)
		png_set_swap(png);
	rowp = malloc((rows ? rows : 1) * sizeof *rowp);
	if (!rowp)
		png_error(png, "out of memory");
	size_t stride = (size_t)w * channels * bits / 8;
	for (unsigned y = 0; y < rows; y++)
		rowp[y] = (png_bytep)(src + (size_t)y * stride);
	png_write_image(png, rowp);
	png_write_end(png, NULL);
	rc = 0;
done:
	png_destroy_write_struct(&png, &info);
	free(rowp);
	if (fclose(f) && !rc) {
		fprintf(stderr, "ptxvm run: cannot write '%s'\n", path);
		rc = -1;
	}
	return rc;
}

#else

int image_read_png(const char *path, unsigned w, unsigned rows, unsigned channels, unsigned bits, uint8_t *dst)
{
	fprintf(stderr, "ptxvm run: cannot read '%s': this ptxvm was built without libpng (install libpng-dev "
		"and rebuild), so PNG files are not supported; give raw bytes\n", path);
	return -1;
}

int image_write_png(const char *path, unsigned w, unsigned rows, unsigned channels, unsigned bits,
		    const uint8_t *src)
{
	fprintf(stderr, "ptxvm run: cannot write '%s': this ptxvm was built without libpng (install libpng-dev "
		"and rebuild), so PNG files are not supported\n", path);
	return -1;
}

#endif
