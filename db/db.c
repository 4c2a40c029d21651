// SPDX-License-Identifier: GPL-2.0-only
/*
 * db.c - opening, closing and transactions.
 *
 * Opening is careful about what it writes: the schema version is read
 * before anything else (switching to WAL rewrites the file header), so a
 * newer database and a file that is not a database are both refused
 * untouched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db_internal.h"

#define DB_BUSY_TIMEOUT_MS 5000

/**
 * memcal_db_default_path() - the database path when --db is not given.
 * @buf, @len: output buffer.
 *
 * $MEMCAL_DB, else /var/lib/memcal/memcal.db for root, else
 * $XDG_DATA_HOME/memcal/memcal.db ($HOME/.local/share when unset).
 *
 * Return: MEMCAL_OK, or MEMCAL_EINVAL when no path can be formed.
 */
int memcal_db_default_path(char *buf, size_t len)
{
	const char *env = getenv("MEMCAL_DB");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n;

	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (geteuid() == 0)
		n = snprintf(buf, len, "/var/lib/memcal/memcal.db");
	else if (xdg && *xdg)
		n = snprintf(buf, len, "%s/memcal/memcal.db", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.local/share/memcal/memcal.db", home);
	else
		return MEMCAL_EINVAL;
	return n > 0 && (size_t)n < len ? MEMCAL_OK : MEMCAL_EINVAL;
}

/*
 * make_parent_dirs - mkdir -p of the directory holding @path: 0,
 * MEMCAL_EINVAL (path too long) or MEMCAL_ECANTOPEN (errno says why).
 */
static int make_parent_dirs(const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return MEMCAL_EINVAL;
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return MEMCAL_ECANTOPEN;
		*p = '/';
	}
	return mkdir(dir, 0755) && errno != EEXIST ? -1 : 0;
}

/* check_parent_dir - a clear reason when @path's directory is unusable. */
static int check_parent_dir(const char *path, bool create, char *err,
			    size_t errlen)
{
	char dir[PATH_MAX];
	char *slash;
	struct stat sb;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "directory %s does not exist: create it "
			 "or choose another --db", dir);
		return MEMCAL_ECANTOPEN;
	}
	if (create && access(path, F_OK) && access(dir, W_OK | X_OK)) {
		snprintf(err, errlen, "cannot create %s: directory %s is not "
			 "writable (%s); choose another --db", path, dir,
			 strerror(errno));
		return MEMCAL_ECANTOPEN;
	}
	return MEMCAL_OK;
}

/* file_kind - "a directory", "a character device"... for a non-file @m. */
static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/*
 * check_file - refuse, before SQLite sees it, a path that cannot be a
 * database: a device, FIFO or directory (SQLite would write a -journal
 * beside /dev/null), a missing file unless @create, an empty file unless
 * @create (a read or a memtune write must not turn it into a database).
 */
static int check_file(const char *path, bool create, bool readonly,
		      char *err, size_t errlen)
{
	struct stat sb;

	if (stat(path, &sb)) {
		if (errno == ENOENT && create)
			return MEMCAL_OK;
		if (errno == ENOENT) {
			snprintf(err, errlen, "no database at %s: run 'memcal "
				 "run' first (it creates one), or pass --db with "
				 "the path of an existing one", path);
			return MEMCAL_ECANTOPEN;
		}
		snprintf(err, errlen, "cannot open %s: %s", path,
			 strerror(errno));
		return MEMCAL_ECANTOPEN;
	}
	if (!S_ISREG(sb.st_mode)) {
		if (readonly)
			snprintf(err, errlen, "%s is not a database (it is %s)",
				 path, file_kind(sb.st_mode));
		else
			snprintf(err, errlen, "%s is %s, not a database file: "
				 "give --db the path of a regular file", path,
				 file_kind(sb.st_mode));
		return MEMCAL_ENOTADB;
	}
	if (sb.st_size == 0 && !create) {
		snprintf(err, errlen, "%s is empty, not a memcal database: run "
			 "'memcal run --db %s' to create one there", path, path);
		return MEMCAL_ENOTADB;
	}
	return MEMCAL_OK;
}

/*
 * wal_without_log - @path is in WAL mode (header byte 18 is 2) and has no
 * -wal file: everything is in the main file, closed cleanly.
 */
static bool wal_without_log(const char *path)
{
	char wal[PATH_MAX + 8];
	unsigned char hdr[20];
	FILE *f = fopen(path, "rb");
	bool wal_mode;

	if (!f)
		return false;
	wal_mode = fread(hdr, 1, sizeof(hdr), f) == sizeof(hdr) &&
		   !memcmp(hdr, "SQLite format 3", 16) && hdr[18] == 2;
	fclose(f);
	snprintf(wal, sizeof(wal), "%s-wal", path);
	return wal_mode && access(wal, F_OK) && errno == ENOENT;
}

/* uri_escape - "file:" URI of @path with %, ?, # escaped. */
static void uri_escape(const char *path, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "file:");

	for (; *path && n + 4 < len; path++) {
		if (*path == '%' || *path == '?' || *path == '#')
			n += (size_t)snprintf(buf + n, len - n, "%%%02X",
					      (unsigned char)*path);
		else
			buf[n++] = *path;
	}
	buf[n] = '\0';
}

/*
 * open_readonly - a read-only connection to @path that creates no file.
 * SQLite opens a WAL database read-only only when the -shm file exists or
 * can be created, and a read-only connection leaves the -wal/-shm files it
 * made behind.  A WAL database with no -wal file holds everything in the
 * main file (the last writer checkpointed and removed it on close), so it
 * is opened as immutable: no locks, no -shm, nothing written.  A writer
 * that starts meanwhile creates a -wal file and commits there; the next
 * reader sees the file and opens normally.
 */
static int open_readonly(memcal_db *db, const char *path)
{
	char uri[PATH_MAX * 3 + 32];

	if (!wal_without_log(path))
		return sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READONLY |
				       SQLITE_OPEN_NOMUTEX, NULL);
	uri_escape(path, uri, sizeof(uri) - 16);
	strcat(uri, "?immutable=1");
	return sqlite3_open_v2(uri, &db->h, SQLITE_OPEN_READONLY |
			       SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, NULL);
}

/* configure - connection settings applied after the version check. */
static int configure(memcal_db *db)
{
	int rc;

	rc = sqlite3_exec(db->h, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	if (rc == SQLITE_OK && !db->readonly) {
		rc = sqlite3_exec(db->h, "PRAGMA journal_mode = WAL;"
				  "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
	}
	return rc == SQLITE_OK ? MEMCAL_OK :
		memcal_db_sqlite_fail(db, rc, "configuring the database");
}

/**
 * memcal_db_open() - open (and if needed create and upgrade) a database.
 * @path:   file, or NULL for memcal_db_default_path() (whose directory is
 *          created when @flags has MEMCAL_DB_OPEN_CREATE).
 * @flags:  MEMCAL_DB_OPEN_CREATE, MEMCAL_DB_OPEN_READONLY.
 * @out:    the handle, on success.
 * @err, @errlen: receives the reason on failure.
 *
 * Return: MEMCAL_OK or an error code; on failure nothing was written.
 */
int memcal_db_open(const char *path, unsigned flags, memcal_db **out,
		   char *err, size_t errlen)
{
	bool create = flags & MEMCAL_DB_OPEN_CREATE;
	bool readonly = flags & MEMCAL_DB_OPEN_READONLY;
	int oflags = readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
	char defpath[PATH_MAX];
	memcal_db *db;
	int rc;

	*out = NULL;
	if (!path) {
		if (memcal_db_default_path(defpath, sizeof(defpath))) {
			snprintf(err, errlen, "no database path: set MEMCAL_DB "
				 "or HOME, or pass --db");
			return MEMCAL_EINVAL;
		}
		path = defpath;
		if (create && !readonly)
			make_parent_dirs(path);
	}
	rc = check_parent_dir(path, create && !readonly, err, errlen);
	if (!rc)
		rc = check_file(path, create && !readonly, readonly, err,
				errlen);
	if (rc)
		return rc;
	if (!readonly && !access(path, F_OK) && access(path, W_OK)) {
		snprintf(err, errlen, "%s is not writable: %s", path,
			 strerror(errno));
		return MEMCAL_EREADONLY;
	}
	db = calloc(1, sizeof(*db));
	if (!db) {
		snprintf(err, errlen, "out of memory");
		return MEMCAL_ERROR;
	}
	snprintf(db->path, sizeof(db->path), "%s", path);
	db->readonly = readonly;
	if (create && !readonly)
		oflags |= SQLITE_OPEN_CREATE;
	if (readonly)
		rc = open_readonly(db, path);
	else
		rc = sqlite3_open_v2(path, &db->h, oflags | SQLITE_OPEN_NOMUTEX,
				     NULL);
	if (rc != SQLITE_OK) {
		rc = memcal_db_sqlite_fail(db, rc, "opening the database");
	} else {
		sqlite3_extended_result_codes(db->h, 1);
		/*
		 * Before the first read: reading the version can find the
		 * file locked by another process (closing its last
		 * connection, or holding it exclusively) and must wait for
		 * it like any other statement.
		 */
		sqlite3_busy_timeout(db->h, DB_BUSY_TIMEOUT_MS);
	}
	if (!rc)
		rc = memcal_db_migrate(db);	/* reads the version first */
	if (!rc)
		rc = configure(db);
	if (rc) {
		snprintf(err, errlen, "%s", db->errmsg);
		memcal_db_close(db);
		return rc;
	}
	*out = db;
	return MEMCAL_OK;
}

/**
 * memcal_db_close() - roll back any open transaction and close.
 * @db: database, or NULL.
 */
void memcal_db_close(memcal_db *db)
{
	if (!db)
		return;
	if (db->in_txn)
		memcal_db_rollback(db);
	sqlite3_close_v2(db->h);
	free(db);
}

/* memcal_db_errmsg() - the last error as a sentence. */
const char *memcal_db_errmsg(const memcal_db *db)
{
	return db->errmsg;
}

/* memcal_db_path() - the file this handle opened. */
const char *memcal_db_path(const memcal_db *db)
{
	return db->path;
}

/**
 * memcal_db_set_busy_timeout() - how long a writer waits for another.
 * @db: database.  @ms: milliseconds (0: fail at once).
 */
void memcal_db_set_busy_timeout(memcal_db *db, int ms)
{
	sqlite3_busy_timeout(db->h, ms);
}

/**
 * memcal_db_begin() - start a write transaction (BEGIN IMMEDIATE).
 * @db: database.
 *
 * Takes the write lock now, waiting up to the busy timeout, so that a
 * read-then-write sequence cannot fail half-way with SQLITE_BUSY.
 *
 * Return: MEMCAL_OK, MEMCAL_EBUSY, MEMCAL_EREADONLY, ...
 */
int memcal_db_begin(memcal_db *db)
{
	int rc;

	if (db->readonly)
		return memcal_db_fail(db, MEMCAL_EREADONLY,
			       "%s was opened read-only", db->path);
	if (db->in_txn)
		return memcal_db_fail(db, MEMCAL_EMISUSE,
			       "a transaction is already open");
	rc = sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return memcal_db_sqlite_fail(db, rc, "starting a write");
	db->in_txn = true;
	return MEMCAL_OK;
}

/**
 * memcal_db_commit() - make the transaction's writes durable.
 * @db: database.
 *
 * On failure the transaction is rolled back: nothing of it is stored.
 */
int memcal_db_commit(memcal_db *db)
{
	int rc;

	if (!db->in_txn)
		return memcal_db_fail(db, MEMCAL_EMISUSE, "no transaction is open");
	rc = sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		rc = memcal_db_sqlite_fail(db, rc, "committing");
		memcal_db_rollback(db);
		return rc;
	}
	db->in_txn = false;
	return MEMCAL_OK;
}

/* memcal_db_rollback() - discard the open transaction, if any. */
void memcal_db_rollback(memcal_db *db)
{
	if (db->in_txn)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	db->in_txn = false;
}
