// SPDX-License-Identifier: GPL-2.0-only
/*
 * outfile.c - where a command's output goes: stdout, or the file named by
 * --out.  Every --out of both tools goes through here, so that each kind
 * of path is treated the same way everywhere:
 *
 *   "-"                 the command's stdout;
 *   a regular file      replaced atomically: a temporary file in the same
 *                       directory, written, fsync'd, renamed over it, with
 *                       the old file's mode (and owner, when allowed);
 *   a new path          created the same way, mode 0666 less the umask;
 *   a character device, written through: opened and written, never
 *   a FIFO, a socket    replaced (/dev/null, /dev/stdout, a pipe);
 *   a symbolic link     followed: its final target is handled as above
 *                       and the link is kept; a dangling link is refused;
 *   a directory or a    refused with a message.
 *   block device
 *
 * Writes go through a stdio cookie stream (struct cli_sink) that keeps the
 * first errno a write() hit, so that a failure names its real cause (No
 * space left on device, Broken pipe) however late stdio reports it.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli.h"
#include "memcal_status.h"

/*
 * sink_write - cookie write: all of @buf to the fd, or 0 (fopencookie(3)'s
 * failure, which sets the stream's error) with the errno kept.
 */
static ssize_t sink_write(void *cookie, const char *buf, size_t len)
{
	struct cli_sink *s = cookie;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(s->fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!s->err)
				s->err = n < 0 ? errno : EIO;
			return 0;
		}
		done += (size_t)n;
	}
	return (ssize_t)len;
}

/* sink_close - cookie close: close the fd when the sink owns it; 0 or EOF. */
static int sink_close(void *cookie)
{
	struct cli_sink *s = cookie;

	if (s->own_fd && close(s->fd)) {
		if (!s->err)
			s->err = errno;
		return EOF;
	}
	return 0;
}

/**
 * cli_sink_open() - a write-only stdio stream over @fd that records the
 * first write error in @s->err.
 * @s:      sink state; must outlive the stream.
 * @fd:     file descriptor to write.
 * @own_fd: close @fd when the stream is closed.
 *
 * Return: the stream, or NULL with errno set.
 */
FILE *cli_sink_open(struct cli_sink *s, int fd, bool own_fd)
{
	static const cookie_io_functions_t io = {
		.write = sink_write, .close = sink_close,
	};
	FILE *f;

	s->fd = fd;
	s->err = 0;
	s->own_fd = own_fd;
	f = fopencookie(s, "w", io);
	if (f && isatty(fd))
		setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

/**
 * cli_stream_errno() - the errno behind a failed write.
 * @s:        the stream's sink, or NULL for a plain stdio stream.
 * @fallback: errno the caller saw, or 0.
 *
 * Return: the sink's recorded errno, else @fallback, else EIO.
 */
int cli_stream_errno(const struct cli_sink *s, int fallback)
{
	return s && s->err ? s->err : fallback ? fallback : EIO;
}

/*
 * connect_socket - *@fd: a stream connection to the AF_UNIX socket @path.
 * Return: 0 or MEMCAL_ECANTOPEN with errno saying why.
 */
static int connect_socket(const char *path, int *fd)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int e;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return MEMCAL_ECANTOPEN;
	}
	strcpy(sa.sun_path, path);
	*fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*fd < 0)
		return MEMCAL_ECANTOPEN;
	if (connect(*fd, (struct sockaddr *)&sa, sizeof(sa))) {
		e = errno;
		close(*fd);
		errno = e;
		return MEMCAL_ECANTOPEN;
	}
	return 0;
}

/* current_umask - the process umask, read without changing it for long. */
static mode_t current_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

/*
 * open_replacement - *@fd: the temporary file beside @o->target that will
 * be renamed over it; @st describes the file it replaces (NULL: new file).
 * Return: 0 or MEMCAL_ECANTOPEN with errno saying why.
 */
static int open_replacement(struct cli_output *o, const struct stat *st,
			    int *fd)
{
	char dir[PATH_MAX], base[PATH_MAX];
	mode_t mode = st ? st->st_mode & 07777 :
			   0666 & ~current_umask();

	snprintf(dir, sizeof(dir), "%s", o->target);
	snprintf(base, sizeof(base), "%s", o->target);
	if (snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.XXXXXX", dirname(dir),
		     basename(base)) >= (int)sizeof(o->tmp)) {
		errno = ENAMETOOLONG;
		return MEMCAL_ECANTOPEN;
	}
	*fd = mkostemp(o->tmp, O_CLOEXEC);
	if (*fd < 0) {
		o->tmp[0] = '\0';
		return MEMCAL_ECANTOPEN;
	}
	if (st && fchown(*fd, st->st_uid, st->st_gid))
		(void)0;	/* only root may give a file away: keep ours */
	if (fchmod(*fd, mode)) {
		int e = errno;

		close(*fd);
		unlink(o->tmp);
		o->tmp[0] = '\0';
		errno = e;
		return MEMCAL_ECANTOPEN;
	}
	return 0;
}

/*
 * open_target - *@fd: @o->target opened according to its type (@st, or
 * NULL when it does not exist).  Return: 0, MEMCAL_ECANTOPEN with errno
 * saying why, or MEMCAL_EINVAL (a kind of file not written) with
 * @why set.
 */
static int open_target(struct cli_output *o, const struct stat *st,
		       int *fd, const char **why)
{
	if (!st)
		return open_replacement(o, NULL, fd);
	if (S_ISREG(st->st_mode))
		return open_replacement(o, st, fd);
	if (S_ISCHR(st->st_mode) || S_ISFIFO(st->st_mode)) {
		*fd = open(o->target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		return *fd < 0 ? MEMCAL_ECANTOPEN : 0;
	}
	if (S_ISSOCK(st->st_mode))
		return connect_socket(o->target, fd);
	*why = S_ISDIR(st->st_mode) ?
		"is a directory: give a file name (or - for stdout)" :
		"is a block device: memcal writes only files, character "
		"devices, FIFOs and sockets";
	return MEMCAL_EINVAL;
}

/**
 * cli_output_open() - start writing a command's output to @path.
 * @ctx:  context; "-" and NULL mean its @out stream.
 * @o:    receives the stream in @o->f; must stay in place until
 *        cli_output_commit() or cli_output_abort().
 * @path: --out value, "-" or NULL.
 *
 * Nothing at @path changes until cli_output_commit(); see the table at the
 * top of this file for what each kind of path gets.
 *
 * Return: 0, or CLI_EXIT_FAILURE with the reason reported.
 */
int cli_output_open(struct cli_ctx *ctx, struct cli_output *o,
		    const char *path)
{
	const char *why = NULL;
	struct stat st;
	bool exists;
	int fd, rc;

	memset(o, 0, sizeof(*o));
	o->path = path && strcmp(path, "-") ? path : "-";
	if (!strcmp(o->path, "-")) {
		o->f = ctx->out;
		o->is_stdout = true;
		return 0;
	}
	if (!*path)
		return cli_error(ctx, CLI_EXIT_USAGE, "empty output path: give "
				 "a file name, or - for stdout");
	snprintf(o->target, sizeof(o->target), "%s", path);
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return cli_error(ctx, CLI_EXIT_FAILURE, "cannot write "
					 "%s: %s", path, strerror(errno));
		exists = false;
	} else {
		exists = true;
		if (S_ISLNK(st.st_mode)) {
			if (!realpath(path, o->target) || stat(o->target, &st))
				return cli_error(ctx, CLI_EXIT_FAILURE, "cannot "
						 "write %s: it is a symbolic link "
						 "whose target cannot be reached "
						 "(%s); give the target's path or "
						 "remove the link", path,
						 strerror(errno));
		}
	}
	rc = open_target(o, exists ? &st : NULL, &fd, &why);
	if (rc == MEMCAL_EINVAL)
		return cli_error(ctx, CLI_EXIT_FAILURE, "cannot write %s: it %s",
				 path, why);
	if (rc)
		return cli_error(ctx, CLI_EXIT_FAILURE, "cannot write %s: %s",
				 path, strerror(errno));
	o->f = cli_sink_open(&o->sink, fd, true);
	if (!o->f) {
		close(fd);
		if (o->tmp[0])
			unlink(o->tmp);
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	}
	return 0;
}

/* sync_dir - make a rename in @file's directory durable (best effort). */
static void sync_dir(const char *file)
{
	char dir[PATH_MAX];
	int fd;

	snprintf(dir, sizeof(dir), "%s", file);
	fd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/**
 * cli_output_abort() - give up: close the stream, remove the temporary
 * file.  What was at the path is untouched (a device or FIFO may have
 * received part of the output).
 * @o: output; safe to call twice.
 */
void cli_output_abort(struct cli_output *o)
{
	if (o->f && !o->is_stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}

/**
 * cli_output_fail() - abort @o and report why the output could not be
 * written.
 * @ctx: context.  @o: output.
 * @err: errno of the failure when the caller knows it, else 0 (the stream's
 *       own recorded error is used, else EIO).
 *
 * Return: CLI_EXIT_FAILURE.
 */
int cli_output_fail(struct cli_ctx *ctx, struct cli_output *o, int err)
{
	const char *path = o->path;
	int e;

	if (o->f)
		fflush(o->f);
	e = o->is_stdout ? cli_stream_errno(ctx->out_sink, err) :
			   cli_stream_errno(&o->sink, err);
	cli_output_abort(o);
	if (o->is_stdout)
		return cli_stdout_failed(ctx, e);
	return cli_error(ctx, CLI_EXIT_FAILURE, "cannot write %s: %s", path,
			 strerror(e));
}

/**
 * cli_output_commit() - finish: flush; a regular file is fsync'd and
 * renamed over the path; a device, FIFO or socket is closed.
 * @ctx: context.  @o: output.
 *
 * Return: 0, or CLI_EXIT_FAILURE with the reason reported (and the path
 * untouched when it was to be replaced).
 */
int cli_output_commit(struct cli_ctx *ctx, struct cli_output *o)
{
	FILE *f = o->f;
	int e = 0;

	if (o->is_stdout) {
		if (fflush(f) || ferror(f))
			return cli_output_fail(ctx, o, errno);
		o->f = NULL;
		return 0;
	}
	if (fflush(f) || ferror(f))
		return cli_output_fail(ctx, o, errno);
	if (o->tmp[0] && fsync(o->sink.fd))
		return cli_output_fail(ctx, o, errno);
	o->f = NULL;
	if (fclose(f))
		e = cli_stream_errno(&o->sink, errno);
	if (!e && o->tmp[0] && rename(o->tmp, o->target))
		e = errno;
	if (e) {
		cli_output_abort(o);
		return cli_error(ctx, CLI_EXIT_FAILURE, "cannot write %s: %s",
				 o->path, strerror(e));
	}
	if (o->tmp[0])
		sync_dir(o->target);
	o->tmp[0] = '\0';
	return 0;
}
