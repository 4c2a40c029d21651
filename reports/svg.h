/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * svg.h - a small SVG writer for the reports: scales (linear and log),
 * "nice" tick computation, axes with ticks, units and labels, legends,
 * line and point series, bars, clipping to the plot area and XML escaping.
 *
 * Coordinates: data values go through the chart's x and y scales into SVG
 * pixels; everything a series draws is clipped to the plot rectangle, both
 * geometrically (segments are cut at its edges, points outside are dropped)
 * and by an SVG clipPath, so no mark ever spills over an axis.
 *
 * Every function that can fail returns 0 or a negative errno-style code.
 */
#ifndef MEMCAL_SVG_H
#define MEMCAL_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Largest number of ticks an axis ever gets. */
#define SVG_MAX_TICKS 32
/* Largest number of legend entries a chart keeps. */
#define SVG_MAX_LEGEND 24

/**
 * struct svg_scale - maps a data interval onto a pixel interval.
 * @d0, @d1: data interval (d0 < d1; for a log scale both > 0).
 * @r0, @r1: pixel interval (r1 < r0 for a y axis: SVG y grows downwards).
 * @log:     logarithmic (base 10) instead of linear.
 */
struct svg_scale {
	double d0, d1;
	double r0, r1;
	bool log;
};

/**
 * struct svg_ticks - tick positions of one axis.
 * @v:    tick values in data units, ascending.
 * @n:    number of ticks.
 * @step: spacing of a linear axis (0 for a log axis).
 */
struct svg_ticks {
	double v[SVG_MAX_TICKS];
	size_t n;
	double step;
};

/*
 * Point markers: a filled circle, a filled square, and an open triangle
 * pointing up (a value that is only a lower bound: the truth is higher).
 */
enum svg_marker {
	SVG_MARK_NONE = 0,
	SVG_MARK_CIRCLE,
	SVG_MARK_SQUARE,
	SVG_MARK_LOWER_BOUND,
};

/**
 * struct svg_legend_entry - one legend line.
 * @label:  text (escaped on output).
 * @color:  CSS colour of the swatch.
 * @dash:   stroke-dasharray of a line swatch, or NULL for solid.
 * @bar:    draw a filled square instead of a line.
 * @width:  stroke width of a line swatch.
 * @marker: a point marker drawn on the swatch (SVG_MARK_NONE: none).
 */
struct svg_legend_entry {
	char label[96];
	char color[24];
	const char *dash;
	bool bar;
	double width;
	enum svg_marker marker;
};

/**
 * struct svg_chart - one chart being written.
 * @f:       where the SVG goes.
 * @id:      element id of the <svg> (also names the clipPath).
 * @width, @height: size of the whole chart in pixels.
 * @px0, @px1, @py0, @py1: the plot rectangle (px0 < px1, py0 < py1).
 * @x, @y:   the scales (pixel ranges set from the plot rectangle).
 * @legend:  entries added with report_svg_legend_add(), drawn by report_svg_chart_end().
 * @n_legend: number of entries.
 */
struct svg_chart {
	FILE *f;
	char id[48];
	double width, height;
	double px0, px1, py0, py1;
	struct svg_scale x, y;
	struct svg_legend_entry legend[SVG_MAX_LEGEND];
	size_t n_legend;
};

/* Scales and ticks. */
double report_svg_scale_map(const struct svg_scale *s, double v);
double report_svg_nice_num(double x, bool round);
int report_svg_linear_ticks(double lo, double hi, int target, struct svg_ticks *t);
int report_svg_log_ticks(double lo, double hi, struct svg_ticks *t);
void report_svg_nice_range(double *lo, double *hi, int target, bool log);
void report_svg_format_tick(double v, double step, char *buf, size_t len);

/* Geometry: Liang-Barsky clipping of a segment to a rectangle. */
bool report_svg_clip_segment(double xmin, double ymin, double xmax, double ymax,
		      double *x0, double *y0, double *x1, double *y1);

/* Text. */
void report_svg_escape(FILE *f, const char *s);
double report_svg_text_width(const char *s, double font_px);

/* Charts. */
int report_svg_chart_begin(struct svg_chart *c, FILE *f, const char *id,
		    const char *title, const char *subtitle, double width,
		    double height);
void report_svg_chart_set_x(struct svg_chart *c, double lo, double hi, bool log);
void report_svg_chart_set_y(struct svg_chart *c, double lo, double hi, bool log);
void report_svg_chart_fit_x(struct svg_chart *c, double lo, double hi,
			    int target, bool log, struct svg_ticks *t);
void report_svg_chart_fit_y(struct svg_chart *c, double lo, double hi,
			    int target, bool log, struct svg_ticks *t);
void report_svg_chart_axes(struct svg_chart *c, const char *xlabel,
		    const char *ylabel, const struct svg_ticks *xt,
		    const struct svg_ticks *yt);
void report_svg_chart_categories(struct svg_chart *c, const char *const *names,
			  size_t n, const char *xlabel);
void report_svg_series_line(struct svg_chart *c, const double *x, const double *y,
		     size_t n, const char *color, double width,
		     const char *dash);
void report_svg_series_points(struct svg_chart *c, const double *x, const double *y,
		       size_t n, const char *color, double radius,
		       const char *title);
void report_svg_series_markers(struct svg_chart *c, const double *x,
			const double *y, size_t n, const char *color,
			double radius, enum svg_marker marker,
			const char *title);
void report_svg_error_bar(struct svg_chart *c, double x, double ylo, double yhi,
		   const char *color);
void report_svg_bar(struct svg_chart *c, double x0, double x1, double y0, double y1,
	     const char *color, const char *title);
void report_svg_hline(struct svg_chart *c, double y, double x0, double x1,
	       const char *color, const char *dash, const char *label);
void report_svg_vline(struct svg_chart *c, double x, const char *color,
	       const char *dash, const char *label);
void report_svg_note(struct svg_chart *c, double x, double y, const char *anchor,
	      const char *color, const char *text);
int report_svg_legend_add(struct svg_chart *c, const char *label, const char *color,
		   const char *dash, double width, bool bar);
int report_svg_legend_marker(struct svg_chart *c, const char *label,
		      const char *color, const char *dash, double width,
		      enum svg_marker marker);
void report_svg_chart_end(struct svg_chart *c);
void report_svg_placeholder(FILE *f, const char *id, const char *title,
		     double width, double height, const char *message);

/* A colour of the report palette (colour-blind safe), cycling. */
const char *report_svg_palette(size_t i);

#endif /* MEMCAL_SVG_H */
