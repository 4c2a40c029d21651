// SPDX-License-Identifier: GPL-2.0-only
/*
 * progress.c - a one-line progress bar on stderr.  It is drawn only when
 * stderr is a terminal and -q is off, so logs and pipes stay clean.
 */
#include <unistd.h>

#include "cli.h"

#define BAR_WIDTH 30

/* draw - redraw the bar in place with the current step's name. */
static void draw(const struct cli_progress *p, const char *what)
{
	unsigned fill = p->total ? p->done * BAR_WIDTH / p->total : 0;
	char bar[BAR_WIDTH + 1];

	for (unsigned i = 0; i < BAR_WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[BAR_WIDTH] = '\0';
	fprintf(p->ctx->err, "\r\033[K%s [%s] %u/%u %.40s", p->label, bar,
		p->done, p->total, what ? what : "");
	fflush(p->ctx->err);
}

/**
 * cli_progress_begin() - start a bar of @total steps labelled @label.
 * @p: bar state, owned by the caller.
 * @ctx: context (decides whether the bar is shown).
 * @label: what is being done.
 * @total: number of steps to expect.
 */
void cli_progress_begin(struct cli_progress *p, struct cli_ctx *ctx,
			const char *label, unsigned total)
{
	p->ctx = ctx;
	p->label = label;
	p->total = total;
	p->done = 0;
	p->enabled = ctx->verbosity >= 0 && isatty(fileno(ctx->err));
	if (p->enabled)
		draw(p, NULL);
}

/* cli_progress_step() - one step done; @what names the next one. */
void cli_progress_step(struct cli_progress *p, const char *what)
{
	if (p->done < p->total)
		p->done++;
	if (p->enabled)
		draw(p, what);
}

/* cli_progress_end() - erase the bar. */
void cli_progress_end(struct cli_progress *p)
{
	if (p->enabled) {
		fprintf(p->ctx->err, "\r\033[K");
		fflush(p->ctx->err);
	}
	p->enabled = false;
}
