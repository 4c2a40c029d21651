// SPDX-License-Identifier: GPL-2.0-only
/*
 * svg.c - the drawing half of the SVG writer the reports use (see svg.h;
 * the geometry is in svg_scale.c).  No plotting library: axes, legends,
 * series and bars, all clipped to the plot rectangle, all text escaped.
 *
 * Layout of a chart: title and subtitle on top, the plot rectangle with the
 * y axis on its left and the x axis below it, the legend in a column to the
 * right of the plot, so that no legend ever covers data.
 */
#include <math.h>
#include <string.h>

#include "memcal_status.h"
#include "svg.h"

#define MARGIN_LEFT	72.0
#define MARGIN_TOP	64.0
#define MARGIN_BOTTOM	52.0
#define LEGEND_COLUMN	200.0
#define FONT		"font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\""

/* text - one <text> element at (@x, @y), escaped. */
static void text(FILE *f, double x, double y, const char *anchor,
		 double size, const char *fill, const char *extra,
		 const char *s)
{
	fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" "
		"font-size=\"%.0f\" fill=\"%s\"%s%s>", x, y, anchor, size, fill,
		extra ? " " : "", extra ? extra : "");
	report_svg_escape(f, s);
	fputs("</text>\n", f);
}

/*
 * wrapped - @s as up to @max_lines lines of @size px text starting at
 * (@x, @y), broken at spaces to fit @room pixels; the last line takes the
 * rest (shrunk to fit if it must be).
 */
static void wrapped(FILE *f, double x, double y, double room, double size,
		    const char *s, int max_lines)
{
	char line[512];

	for (int l = 0; l < max_lines && *s; l++, y += size + 3) {
		size_t n = strlen(s), cut = n;

		if (n >= sizeof(line))
			n = cut = sizeof(line) - 1;
		memcpy(line, s, n);
		line[n] = '\0';
		while (l < max_lines - 1 && report_svg_text_width(line, size) > room) {
			char *sp = strrchr(line, ' ');

			if (!sp)
				break;
			*sp = '\0';
			cut = (size_t)(sp - line) + 1;
		}
		if (cut >= n)
			cut = n;
		{
			double sz = size;

			while (sz > 7 && report_svg_text_width(line, sz) > room)
				sz -= 0.5;
			text(f, x, y, "start", sz, "#555555", NULL, line);
		}
		s += cut;
	}
}

/*
 * report_svg_chart_begin() - open a chart of @width x @height pixels: the <svg>
 * element with id @id, a white background, the title and subtitle, and
 * the clipPath of the plot rectangle.  Return: 0, MEMCAL_EINVAL.
 */
int report_svg_chart_begin(struct svg_chart *c, FILE *f, const char *id,
		    const char *title, const char *subtitle, double width,
		    double height)
{
	memset(c, 0, sizeof(*c));
	if (!f || !id || width < LEGEND_COLUMN + MARGIN_LEFT + 100 ||
	    height < MARGIN_TOP + MARGIN_BOTTOM + 60)
		return MEMCAL_EINVAL;
	c->f = f;
	snprintf(c->id, sizeof(c->id), "%s", id);
	c->width = width;
	c->height = height;
	c->px0 = MARGIN_LEFT;
	c->px1 = width - LEGEND_COLUMN;
	c->py0 = MARGIN_TOP;
	c->py1 = height - MARGIN_BOTTOM;
	report_svg_chart_set_x(c, 0, 1, false);
	report_svg_chart_set_y(c, 0, 1, false);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"");
	report_svg_escape(f, c->id);
	fprintf(f, "\" class=\"chart\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" role=\"img\" %s>\n", width, height,
		width, height, FONT);
	fputs("<title>", f);
	report_svg_escape(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" "
		"fill=\"#ffffff\"/>\n", width, height);
	fprintf(f, "<defs><clipPath id=\"%s-clip\"><rect x=\"%.2f\" "
		"y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/></clipPath></defs>\n",
		c->id, c->px0, c->py0, c->px1 - c->px0, c->py1 - c->py0);
	text(f, 12, 20, "start", 15, "#111111", "font-weight=\"bold\"", title);
	if (subtitle && *subtitle)
		wrapped(f, 12, 37, width - 24, 11, subtitle, 2);
	return 0;
}

/* report_svg_chart_set_x() - the x data interval, mapped onto the plot width. */
void report_svg_chart_set_x(struct svg_chart *c, double lo, double hi, bool log)
{
	c->x = (struct svg_scale){ lo, hi, c->px0, c->px1, log };
}

/* report_svg_chart_set_y() - the y data interval, mapped bottom to top. */
void report_svg_chart_set_y(struct svg_chart *c, double lo, double hi, bool log)
{
	c->y = (struct svg_scale){ lo, hi, c->py1, c->py0, log };
}

/*
 * nice_ticks - widen [*@lo, *@hi] to nice bounds and fill @t with the
 * ticks: about @target on a linear axis, the powers of ten on a log one.
 */
static void nice_ticks(double *lo, double *hi, int target, bool log,
		       struct svg_ticks *t)
{
	report_svg_nice_range(lo, hi, target, log);
	if (log)
		report_svg_log_ticks(*lo, *hi, t);
	else
		report_svg_linear_ticks(*lo, *hi, target, t);
}

/*
 * report_svg_chart_fit_x() - x from [@lo, @hi] widened to nice bounds, and
 * its ticks in @t (nice_ticks()).
 */
void report_svg_chart_fit_x(struct svg_chart *c, double lo, double hi,
			    int target, bool log, struct svg_ticks *t)
{
	nice_ticks(&lo, &hi, target, log, t);
	report_svg_chart_set_x(c, lo, hi, log);
}

/* report_svg_chart_fit_y() - the same for y. */
void report_svg_chart_fit_y(struct svg_chart *c, double lo, double hi,
			    int target, bool log, struct svg_ticks *t)
{
	nice_ticks(&lo, &hi, target, log, t);
	report_svg_chart_set_y(c, lo, hi, log);
}

/*
 * report_svg_chart_axes() - frame, grid lines, ticks with their labels, and the
 * axis titles (@xlabel below, @ylabel rotated on the left; both should
 * name their unit).  NULL tick sets draw no ticks on that axis.
 */
void report_svg_chart_axes(struct svg_chart *c, const char *xlabel,
		    const char *ylabel, const struct svg_ticks *xt,
		    const struct svg_ticks *yt)
{
	FILE *f = c->f;
	char buf[48];

	fprintf(f, "<g class=\"axes\" stroke-width=\"1\">\n");
	for (size_t i = 0; yt && i < yt->n; i++) {
		double y = report_svg_scale_map(&c->y, yt->v[i]);

		if (!isfinite(y) || y < c->py0 - 0.5 || y > c->py1 + 0.5)
			continue;
		fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
			"y2=\"%.2f\" stroke=\"#e4e4e4\"/>\n", c->px0, y, c->px1,
			y);
		fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
			"y2=\"%.2f\" stroke=\"#333333\"/>\n", c->px0 - 5, y,
			c->px0, y);
		report_svg_format_tick(yt->v[i], yt->step, buf, sizeof(buf));
		text(f, c->px0 - 8, y + 4, "end", 11, "#333333", NULL, buf);
	}
	for (size_t i = 0; xt && i < xt->n; i++) {
		double x = report_svg_scale_map(&c->x, xt->v[i]);

		if (!isfinite(x) || x < c->px0 - 0.5 || x > c->px1 + 0.5)
			continue;
		fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
			"y2=\"%.2f\" stroke=\"#e4e4e4\"/>\n", x, c->py0, x,
			c->py1);
		fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
			"y2=\"%.2f\" stroke=\"#333333\"/>\n", x, c->py1, x,
			c->py1 + 5);
		report_svg_format_tick(xt->v[i], xt->step, buf, sizeof(buf));
		text(f, x, c->py1 + 18, "middle", 11, "#333333", NULL, buf);
	}
	fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
		"height=\"%.2f\" fill=\"none\" stroke=\"#333333\"/>\n", c->px0,
		c->py0, c->px1 - c->px0, c->py1 - c->py0);
	fputs("</g>\n", f);
	if (xlabel)
		text(f, (c->px0 + c->px1) / 2, c->py1 + 38, "middle", 12,
		     "#111111", "class=\"xlabel\"", xlabel);
	if (ylabel) {
		char rot[80];
		double cy = (c->py0 + c->py1) / 2;

		snprintf(rot, sizeof(rot), "class=\"ylabel\" transform=\"rotate("
			 "-90 18 %.2f)\"", cy);
		text(f, 18, cy, "middle", 12, "#111111", rot, ylabel);
	}
}

/*
 * report_svg_chart_categories() - a categorical x axis: @n slots of width 1 over
 * the data interval [0, @n], each labelled under its centre, and a linear
 * x scale set to match.  Draws the frame's x side and the axis title.
 */
void report_svg_chart_categories(struct svg_chart *c, const char *const *names,
			  size_t n, const char *xlabel)
{
	double slot;

	report_svg_chart_set_x(c, 0, n ? (double)n : 1, false);
	slot = (c->px1 - c->px0) / (double)(n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		double x = report_svg_scale_map(&c->x, (double)i + 0.5);
		double size = 11;
		char buf[64];

		snprintf(buf, sizeof(buf), "%s", names[i] ? names[i] : "");
		while (size > 7 && report_svg_text_width(buf, size) > slot - 4)
			size -= 1;
		text(c->f, x, c->py1 + 18, "middle", size, "#333333", NULL, buf);
	}
	if (xlabel)
		text(c->f, (c->px0 + c->px1) / 2, c->py1 + 38, "middle", 12,
		     "#111111", "class=\"xlabel\"", xlabel);
}

/* clip_open - start a group clipped to the plot rectangle. */
static void clip_open(struct svg_chart *c, const char *cls)
{
	fprintf(c->f, "<g class=\"%s\" clip-path=\"url(#%s-clip)\">\n", cls,
		c->id);
}

/*
 * report_svg_series_line() - a polyline through the points (@x[i], @y[i]) in data
 * units; a non-finite value breaks the line; every segment is cut at the
 * plot rectangle.
 */
void report_svg_series_line(struct svg_chart *c, const double *x, const double *y,
		     size_t n, const char *color, double width,
		     const char *dash)
{
	double lx = 0, ly = 0;
	bool pen = false, have_prev = false, any = false;

	clip_open(c, "series");
	for (size_t i = 0; i < n; i++) {
		double px = report_svg_scale_map(&c->x, x[i]);
		double py = report_svg_scale_map(&c->y, y[i]);
		double a = lx, b = ly, d = px, e = py;

		if (!isfinite(px) || !isfinite(py)) {
			have_prev = pen = false;
			continue;
		}
		if (have_prev && report_svg_clip_segment(c->px0, c->py0, c->px1,
						  c->py1, &a, &b, &d, &e)) {
			if (!any)
				fprintf(c->f, "<path fill=\"none\" stroke=\"%s\" "
					"stroke-width=\"%.1f\" stroke-linejoin="
					"\"round\"%s%s%s d=\"", color, width,
					dash ? " stroke-dasharray=\"" : "",
					dash ? dash : "", dash ? "\"" : "");
			any = true;
			if (!pen || a != lx || b != ly)
				fprintf(c->f, "M%.2f %.2f", a, b);
			fprintf(c->f, "L%.2f %.2f", d, e);
			/* pen stays down only if the end was not cut */
			pen = d == px && e == py;
		} else {
			pen = false;
		}
		lx = px;
		ly = py;
		have_prev = true;
	}
	if (any)
		fputs("\"/>\n", c->f);
	fputs("</g>\n", c->f);
}

/*
 * marker - one @marker of @radius centred at pixel (@px, @py); @title (may
 * be NULL) with the data values (@x, @y) becomes its tooltip.
 */
static void marker(FILE *f, double px, double py, double radius,
		   enum svg_marker m, const char *color, const char *title,
		   double x, double y)
{
	const char *end = m == SVG_MARK_SQUARE ? "</rect>\n" :
			  m == SVG_MARK_LOWER_BOUND ? "</path>\n" :
			  "</circle>\n";

	if (m == SVG_MARK_SQUARE)
		fprintf(f, "<rect class=\"mark\" x=\"%.2f\" y=\"%.2f\" "
			"width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
			"stroke=\"#ffffff\" stroke-width=\"0.8\">", px - radius,
			py - radius, 2 * radius, 2 * radius, color);
	else if (m == SVG_MARK_LOWER_BOUND)
		/* open triangle, apex up: "at least this much" */
		fprintf(f, "<path class=\"mark lower-bound\" d=\"M%.2f %.2f"
			"L%.2f %.2fL%.2f %.2fZ\" fill=\"#ffffff\" "
			"stroke=\"%s\" stroke-width=\"1.8\">", px, py - radius * 1.6,
			px + radius * 1.4, py + radius, px - radius * 1.4,
			py + radius, color);
	else
		fprintf(f, "<circle class=\"mark\" cx=\"%.2f\" cy=\"%.2f\" "
			"r=\"%.1f\" fill=\"%s\" stroke=\"#ffffff\" "
			"stroke-width=\"0.8\">", px, py, radius, color);
	if (title) {
		fputs("<title>", f);
		report_svg_escape(f, title);
		fprintf(f, ": %g, %g%s</title>", x, y,
			m == SVG_MARK_LOWER_BOUND ? " (lower bound)" : "");
	}
	fputs(end, f);
}

/*
 * report_svg_series_markers() - a @marker of @radius at each point inside the
 * plot rectangle (its centre inside); points outside (or not finite) are
 * dropped.  @title, when given, becomes each point's tooltip prefix.
 */
void report_svg_series_markers(struct svg_chart *c, const double *x,
			const double *y, size_t n, const char *color,
			double radius, enum svg_marker m, const char *title)
{
	/* not clip-path'd: a marker on the edge stays whole */
	fputs("<g class=\"points\">\n", c->f);
	for (size_t i = 0; i < n; i++) {
		double px = report_svg_scale_map(&c->x, x[i]);
		double py = report_svg_scale_map(&c->y, y[i]);

		if (!isfinite(px) || !isfinite(py) || px < c->px0 ||
		    px > c->px1 || py < c->py0 || py > c->py1)
			continue;
		marker(c->f, px, py, radius, m, color, title, x[i], y[i]);
	}
	fputs("</g>\n", c->f);
}

/* report_svg_series_points() - report_svg_series_markers() with filled circles. */
void report_svg_series_points(struct svg_chart *c, const double *x, const double *y,
		       size_t n, const char *color, double radius,
		       const char *title)
{
	report_svg_series_markers(c, x, y, n, color, radius, SVG_MARK_CIRCLE, title);
}

/* segment - one clipped line in pixel coordinates (dropped if outside). */
static void segment(struct svg_chart *c, double x0, double y0, double x1,
		    double y1, const char *color, double width,
		    const char *dash)
{
	if (!report_svg_clip_segment(c->px0, c->py0, c->px1, c->py1, &x0, &y0, &x1,
			      &y1))
		return;
	fprintf(c->f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
		"stroke=\"%s\" stroke-width=\"%.1f\"%s%s%s/>\n", x0, y0, x1, y1,
		color, width, dash ? " stroke-dasharray=\"" : "",
		dash ? dash : "", dash ? "\"" : "");
}

/* report_svg_error_bar() - a vertical min-max whisker at @x with end caps. */
void report_svg_error_bar(struct svg_chart *c, double x, double ylo, double yhi,
		   const char *color)
{
	double px = report_svg_scale_map(&c->x, x);
	double a = report_svg_scale_map(&c->y, ylo), b = report_svg_scale_map(&c->y, yhi);

	segment(c, px, a, px, b, color, 1, NULL);
	segment(c, px - 3, a, px + 3, a, color, 1, NULL);
	segment(c, px - 3, b, px + 3, b, color, 1, NULL);
}

/*
 * report_svg_bar() - a filled rectangle between data x @x0..@x1 and y @y0..@y1,
 * clipped to the plot rectangle; @title becomes its tooltip.
 */
void report_svg_bar(struct svg_chart *c, double x0, double x1, double y0, double y1,
	     const char *color, const char *title)
{
	double a = report_svg_scale_map(&c->x, x0), b = report_svg_scale_map(&c->x, x1);
	double d = report_svg_scale_map(&c->y, y0), e = report_svg_scale_map(&c->y, y1);
	double l = fmax(fmin(a, b), c->px0), r = fmin(fmax(a, b), c->px1);
	double t = fmax(fmin(d, e), c->py0), u = fmin(fmax(d, e), c->py1);

	if (!isfinite(l) || !isfinite(r) || !isfinite(t) || !isfinite(u) ||
	    r <= l || u <= t)
		return;
	fprintf(c->f, "<rect class=\"bar\" x=\"%.2f\" y=\"%.2f\" "
		"width=\"%.2f\" height=\"%.2f\" fill=\"%s\" stroke=\"#ffffff\" "
		"stroke-width=\"0.8\">", l, t, r - l, u - t, color);
	if (title) {
		fputs("<title>", c->f);
		report_svg_escape(c->f, title);
		fputs("</title>", c->f);
	}
	fputs("</rect>\n", c->f);
}

/*
 * report_svg_hline() - a horizontal marker at data @y from data x @x0 to @x1
 * (NAN, NAN: the whole plot width), labelled just above its right end.
 */
void report_svg_hline(struct svg_chart *c, double y, double x0, double x1,
	       const char *color, const char *dash, const char *label)
{
	double py = report_svg_scale_map(&c->y, y);
	double a = isfinite(x0) ? report_svg_scale_map(&c->x, x0) : c->px0;
	double b = isfinite(x1) ? report_svg_scale_map(&c->x, x1) : c->px1;

	if (!isfinite(py) || py < c->py0 || py > c->py1)
		return;
	segment(c, a, py, b, py, color, 1.5, dash);
	if (label) {
		double lx = fmin(fmax(a, b), c->px1) - 4;
		double ly = py - 5 < c->py0 + 12 ? py + 14 : py - 5;

		text(c->f, lx, ly, "end", 11, color, "class=\"marker\"", label);
	}
}

/*
 * report_svg_vline() - a vertical marker at data @x over the plot height,
 * labelled along the line (text rotated to read upwards, just left of it,
 * from the top of the plot down), so that two markers' labels never
 * collide however close the markers are.
 */
void report_svg_vline(struct svg_chart *c, double x, const char *color,
	       const char *dash, const char *label)
{
	double px = report_svg_scale_map(&c->x, x);

	if (!isfinite(px) || px < c->px0 || px > c->px1)
		return;
	segment(c, px, c->py0, px, c->py1, color, 1.5, dash);
	if (label) {
		double lx = px - 5 < c->px0 + 12 ? px + 13 : px - 5;
		double ly = c->py0 + 6;
		char rot[96];

		snprintf(rot, sizeof(rot), "class=\"marker\" transform=\"rotate("
			 "-90 %.2f %.2f)\"", lx, ly);
		text(c->f, lx, ly, "end", 11, color, rot, label);
	}
}

/*
 * report_svg_note() - free text at data position (@x, @y) inside the plot; a
 * NAN position means the centre of the plot.  Text anchored at its "end"
 * or "start" keeps 4 px from the point and moves to the point's other side
 * when it would leave the plot.
 */
void report_svg_note(struct svg_chart *c, double x, double y, const char *anchor,
	      const char *color, const char *s)
{
	double px = isfinite(x) ? report_svg_scale_map(&c->x, x) : (c->px0 + c->px1) / 2;
	double py = isfinite(y) ? report_svg_scale_map(&c->y, y) : (c->py0 + c->py1) / 2;

	double w = report_svg_text_width(s, 11);

	if (!isfinite(px) || !isfinite(py))
		return;
	if (!anchor)
		anchor = "middle";
	/* keep the text inside the plot: flip to the other side if needed */
	if (!strcmp(anchor, "end") && px - 4 - w < c->px0)
		anchor = "start";
	else if (!strcmp(anchor, "start") && px + 4 + w > c->px1)
		anchor = "end";
	if (strcmp(anchor, "middle"))
		px += !strcmp(anchor, "end") ? -4 : 4;
	text(c->f, px, py, anchor, 11, color ? color : "#333333",
	     "class=\"note\"", s);
}

/*
 * report_svg_legend_add() - add an entry to the chart's legend (drawn by
 * report_svg_chart_end()).  Return: 0, MEMCAL_ERANGE when the legend is full.
 */
int report_svg_legend_add(struct svg_chart *c, const char *label, const char *color,
		   const char *dash, double width, bool bar)
{
	struct svg_legend_entry *e;

	if (c->n_legend >= SVG_MAX_LEGEND)
		return MEMCAL_ERANGE;
	e = &c->legend[c->n_legend++];
	snprintf(e->label, sizeof(e->label), "%s", label ? label : "");
	snprintf(e->color, sizeof(e->color), "%s", color ? color : "#000");
	e->dash = dash;
	e->width = width > 0 ? width : 2;
	e->bar = bar;
	return 0;
}

/*
 * report_svg_legend_marker() - report_svg_legend_add() of a line swatch (none when
 * @width is 0) with the point marker @m drawn on it.
 * Return: 0, MEMCAL_ERANGE when the legend is full.
 */
int report_svg_legend_marker(struct svg_chart *c, const char *label,
		      const char *color, const char *dash, double width,
		      enum svg_marker m)
{
	int rc = report_svg_legend_add(c, label, color, dash, width, false);

	if (!rc) {
		c->legend[c->n_legend - 1].marker = m;
		c->legend[c->n_legend - 1].width = width;
	}
	return rc;
}

/*
 * report_svg_chart_end() - draw the legend in the column right of the plot (long
 * labels are shrunk to fit) and close the <svg> element.
 */
void report_svg_chart_end(struct svg_chart *c)
{
	FILE *f = c->f;
	double x = c->px1 + 14, y = c->py0 + 6, room = LEGEND_COLUMN - 44;

	if (c->n_legend)
		fputs("<g class=\"legend\">\n", f);
	for (size_t i = 0; i < c->n_legend && y < c->height - 8; i++) {
		const struct svg_legend_entry *e = &c->legend[i];
		double size = 11;

		if (e->bar)
			fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"18\" "
				"height=\"10\" fill=\"%s\"/>\n", x, y, e->color);
		else if (e->width > 0)
			fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
				"y2=\"%.2f\" stroke=\"%s\" stroke-width=\"%.1f\""
				"%s%s%s/>\n", x, y + 5, x + 18, y + 5, e->color,
				e->width, e->dash ? " stroke-dasharray=\"" : "",
				e->dash ? e->dash : "", e->dash ? "\"" : "");
		if (e->marker != SVG_MARK_NONE)
			marker(f, x + 9, y + 5, 4, e->marker, e->color, NULL,
			       0, 0);
		while (size > 7 && report_svg_text_width(e->label, size) > room)
			size -= 0.5;
		text(f, x + 24, y + 9, "start", size, "#222222", NULL, e->label);
		y += 18;
	}
	if (c->n_legend)
		fputs("</g>\n", f);
	fputs("</svg>\n", f);
}

/*
 * report_svg_placeholder() - a chart-sized <svg> that says, in place of the
 * chart, which data is missing and how to get it.
 */
void report_svg_placeholder(FILE *f, const char *id, const char *title,
		     double width, double height, const char *message)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"");
	report_svg_escape(f, id);
	fprintf(f, "\" class=\"chart missing\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" role=\"img\" %s>\n", width, height,
		width, height, FONT);
	fputs("<title>", f);
	report_svg_escape(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<rect x=\"0.5\" y=\"0.5\" width=\"%.0f\" height=\"%.0f\" "
		"fill=\"#fafafa\" stroke=\"#bbbbbb\" stroke-dasharray=\"6 4\"/>\n",
		width - 1, height - 1);
	text(f, 12, 20, "start", 15, "#111111", "font-weight=\"bold\"", title);
	text(f, width / 2, height / 2, "middle", 13, "#9a3b00",
	     "class=\"note\"", message);
	fputs("</svg>\n", f);
}
