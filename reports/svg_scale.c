// SPDX-License-Identifier: GPL-2.0-only
/*
 * svg_scale.c - the geometry half of the SVG writer (see svg.h): scales,
 * nice numbers, ticks and their labels, segment clipping, XML escaping and
 * text measurement.  Nothing here writes a chart; svg.c does.
 */
#include <math.h>
#include <string.h>

#include "memcal_status.h"
#include "svg.h"

/*
 * report_svg_palette() - colour @i of a colour-blind-safe palette (Okabe-Ito,
 * without its yellow, which is unreadable on white), cycling.
 */
const char *report_svg_palette(size_t i)
{
	static const char *const colors[] = {
		"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9",
		"#D55E00", "#666666", "#000000",
	};

	return colors[i % (sizeof(colors) / sizeof(colors[0]))];
}

/*
 * report_svg_scale_map() - the pixel position of data value @v.  A log scale maps
 * values <= 0 to NaN; callers drop non-finite positions.
 */
double report_svg_scale_map(const struct svg_scale *s, double v)
{
	double a = s->d0, b = s->d1;

	if (s->log) {
		if (v <= 0 || a <= 0 || b <= 0)
			return NAN;
		v = log10(v);
		a = log10(a);
		b = log10(b);
	}
	if (!(b > a))
		return (s->r0 + s->r1) / 2;
	return s->r0 + (v - a) / (b - a) * (s->r1 - s->r0);
}

/*
 * report_svg_nice_num() - a "nice" number (1, 2 or 5 times a power of ten) close
 * to @x > 0: the nearest one when @round, else the smallest one >= @x
 * (Heckbert, "Nice numbers for graph labels", Graphics Gems 1990).
 */
double report_svg_nice_num(double x, bool round)
{
	double e, f, nf;

	if (!(x > 0) || !isfinite(x))
		return 1;
	e = floor(log10(x));
	f = x / pow(10, e);
	if (round)
		nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
	else
		nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
	return nf * pow(10, e);
}

/*
 * report_svg_linear_ticks() - about @target nicely spaced ticks covering the data
 * interval [@lo, @hi]: every tick lies inside it.  A degenerate interval
 * gets one tick.  Return: 0, MEMCAL_EINVAL for non-finite bounds.
 */
int report_svg_linear_ticks(double lo, double hi, int target, struct svg_ticks *t)
{
	double step, first;

	memset(t, 0, sizeof(*t));
	if (!isfinite(lo) || !isfinite(hi))
		return MEMCAL_EINVAL;
	if (hi < lo) {
		double tmp = lo;

		lo = hi;
		hi = tmp;
	}
	if (target < 2)
		target = 2;
	if (hi - lo <= fabs(hi) * 1e-12) {
		t->v[0] = lo;
		t->n = 1;
		return 0;
	}
	step = report_svg_nice_num((hi - lo) / (target - 1), true);
	while ((hi - lo) / step > SVG_MAX_TICKS - 1)
		step = report_svg_nice_num(step * 1.5, false);
	first = ceil(lo / step - 1e-9) * step;
	for (double v = first; v <= hi + step * 1e-9 && t->n < SVG_MAX_TICKS;
	     v = first + (double)t->n * step)
		t->v[t->n++] = fabs(v) < step * 1e-9 ? 0 : v;
	t->step = step;
	return 0;
}

/*
 * report_svg_log_ticks() - ticks of a log axis over [@lo, @hi] (both > 0): the
 * powers of ten, plus 2x and 5x when the interval spans at most two
 * decades.  Return: 0, MEMCAL_EINVAL for bounds that are not positive.
 */
int report_svg_log_ticks(double lo, double hi, struct svg_ticks *t)
{
	static const double mult[] = { 1, 2, 5 };
	int e0, e1;
	bool fine;

	memset(t, 0, sizeof(*t));
	if (!(lo > 0) || !(hi > 0) || !isfinite(lo) || !isfinite(hi))
		return MEMCAL_EINVAL;
	if (hi < lo) {
		double tmp = lo;

		lo = hi;
		hi = tmp;
	}
	e0 = (int)floor(log10(lo) + 1e-9);
	e1 = (int)ceil(log10(hi) - 1e-9);
	fine = e1 - e0 <= 2;
	for (int e = e0; e <= e1 && t->n < SVG_MAX_TICKS; e++)
		for (size_t m = 0; m < (fine ? 3u : 1u); m++) {
			double v = mult[m] * pow(10, e);

			if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9) &&
			    t->n < SVG_MAX_TICKS)
				t->v[t->n++] = v;
		}
	return 0;
}

/*
 * report_svg_nice_range() - widen [@lo, @hi] to nice bounds: multiples of the
 * tick step for a linear axis, powers of ten for a log one.  An empty
 * interval is widened around its value.
 */
void report_svg_nice_range(double *lo, double *hi, int target, bool log)
{
	double step;

	if (!isfinite(*lo) || !isfinite(*hi)) {
		*lo = log ? 1 : 0;
		*hi = log ? 10 : 1;
		return;
	}
	if (log) {
		if (!(*lo > 0))
			*lo = *hi > 0 ? *hi / 10 : 1;
		if (!(*hi > *lo))
			*hi = *lo * 10;
		*lo = pow(10, floor(log10(*lo) + 1e-9));
		*hi = pow(10, ceil(log10(*hi) - 1e-9));
		if (*hi <= *lo)
			*hi = *lo * 10;
		return;
	}
	if (*hi - *lo <= fabs(*hi) * 1e-12) {
		double d = *hi != 0 ? fabs(*hi) * 0.1 : 1;

		*lo -= d;
		*hi += d;
	}
	if (target < 2)
		target = 2;
	step = report_svg_nice_num((*hi - *lo) / (target - 1), true);
	*lo = floor(*lo / step + 1e-9) * step;
	*hi = ceil(*hi / step - 1e-9) * step;
}

/*
 * report_svg_format_tick() - the label of tick @v: as many decimals as the step
 * needs (none for a step >= 1); a log axis (@step 0) uses %g.
 */
void report_svg_format_tick(double v, double step, char *buf, size_t len)
{
	int dec = 0;

	if (step > 0) {
		dec = (int)-floor(log10(step) + 1e-9);
		if (dec < 0)
			dec = 0;
		if (dec > 6)
			dec = 6;
		snprintf(buf, len, "%.*f", dec, v);
	} else {
		snprintf(buf, len, "%g", v);
	}
}

/*
 * report_svg_clip_segment() - cut the segment (x0,y0)-(x1,y1) to the rectangle
 * [xmin,xmax] x [ymin,ymax] (Liang-Barsky).  Return: false when nothing of
 * it is inside (or a coordinate is not finite); the ends are updated.
 */
bool report_svg_clip_segment(double xmin, double ymin, double xmax, double ymax,
		      double *x0, double *y0, double *x1, double *y1)
{
	double dx = *x1 - *x0, dy = *y1 - *y0, t0 = 0, t1 = 1;
	double p[4] = { -dx, dx, -dy, dy };
	double q[4] = { *x0 - xmin, xmax - *x0, *y0 - ymin, ymax - *y0 };

	if (!isfinite(*x0) || !isfinite(*y0) || !isfinite(*x1) ||
	    !isfinite(*y1))
		return false;
	for (int i = 0; i < 4; i++) {
		if (p[i] == 0) {
			if (q[i] < 0)
				return false;
			continue;
		}
		double r = q[i] / p[i];

		if (p[i] < 0) {
			if (r > t1)
				return false;
			if (r > t0)
				t0 = r;
		} else {
			if (r < t0)
				return false;
			if (r < t1)
				t1 = r;
		}
	}
	*x1 = *x0 + t1 * dx;
	*y1 = *y0 + t1 * dy;
	*x0 = *x0 + t0 * dx;
	*y0 = *y0 + t0 * dy;
	return true;
}

/*
 * report_svg_escape() - write @s as XML character data: & < > " ' become
 * entities; control characters other than tab and newline are dropped
 * (XML 1.0 cannot carry them).
 */
void report_svg_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;

		switch (ch) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if (ch >= 0x20 || ch == '\t' || ch == '\n')
				fputc(ch, f);
		}
	}
}

/*
 * report_svg_text_width() - estimated width in pixels of @s in a sans-serif font
 * of @font_px (0.56 em per character; UTF-8 continuation bytes not counted).
 */
double report_svg_text_width(const char *s, double font_px)
{
	size_t n = 0;

	for (; s && *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return (double)n * font_px * 0.56;
}

