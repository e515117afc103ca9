/*
 * fsutil.c — file-system helpers of the publishing code: mkdir -p, whole
 * file writes (atomic: a temporary name, then rename; also: only when
 * changed), rm -rf, SHA-256, JSON dumps, ISO timestamps, the number of
 * worker threads; and the only ways a data set's files are opened, checked
 * and copied: beneath the data set's folder, no symbolic link followed,
 * nothing but regular files and folders, sizes checked before reading.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../sha256.h"
#include "publish.h"
#include "util.h"

bool pub_is_dir(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

bool pub_exists(const char *path)
{
	struct stat sb;
	return lstat(path, &sb) == 0;
}

int pub_mkdirs(const char *path, fl_err *err)
{
	char *p = fl_xstrdup(path);
	size_t n = strlen(p);
	for (size_t i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		char c = p[i];
		p[i] = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			fl_seterr(err, "%s: cannot create folder: %s", p, strerror(errno));
			free(p);
			return -1;
		}
		p[i] = c;
	}
	free(p);
	return 0;
}

/* A file is written under a hidden temporary name in its folder, then
 * renamed over path: a reader (a server of the folder) sees the old bytes
 * or the new, never an empty or half-written file; a symbolic link at path
 * is replaced, not followed.  No fsync: a whole rendering is redone after
 * a crash. */
int pub_write_file(const char *path, const void *data, size_t n, fl_err *err)
{
	static _Atomic unsigned long seq;
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
	char *tmp = fl_xasprintf("%.*s.%s.tmp-%ld-%lu", (int)dl, path, path + dl,
				 (long)getpid(), ++seq);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		fl_seterr(err, "%s: cannot write: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	int rc = fl_write_all(fd, data, n);
	if (close(fd) < 0)
		rc = -1;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -1;
	if (rc < 0) {
		fl_seterr(err, "%s: cannot write: %s", path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

int pub_write_if_changed(const char *path, const void *data, size_t n,
			 bool *written, fl_err *err)
{
	if (written)
		*written = false;
	/* no link followed, no FIFO waited for: only a regular file's bytes
	 * are compared, anything else is replaced */
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0) {
		struct stat sb;
		bool same = false;
		if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size == n) {
			char *old = fl_xmalloc(n ? n : 1);
			size_t got = 0;
			while (got < n) {
				ssize_t r = read(fd, old + got, n - got);
				if (r <= 0) {
					if (r < 0 && errno == EINTR)
						continue;
					break;
				}
				got += (size_t)r;
			}
			same = got == n && memcmp(old, data, n) == 0;
			free(old);
		}
		close(fd);
		if (same)
			return 0;
	} else if (errno == ENOENT) {
		char *dir = fl_xstrdup(path);
		char *slash = strrchr(dir, '/');
		int rc = 0;
		if (slash && slash != dir) {
			*slash = '\0';
			if (mkdir(dir, 0755) < 0 && errno != EEXIST)
				rc = pub_mkdirs(dir, err);
		}
		free(dir);
		if (rc < 0)
			return -1;
	}
	if (written)
		*written = true;
	return pub_write_file(path, data, n, err);
}

static int rmtree_at(int dirfd, const char *name)
{
	struct stat sb;
	if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(sb.st_mode))
		return unlinkat(dirfd, name, 0);
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	int rc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (rmtree_at(fd, de->d_name) < 0)
			rc = -1;
	}
	closedir(d);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0)
		rc = -1;
	return rc;
}

int pub_rmtree(const char *path)
{
	return rmtree_at(AT_FDCWD, path);
}

int pub_rmtree_at(int dirfd, const char *name)
{
	return rmtree_at(dirfd, name);
}

/* A copy of one regular file (where it cannot be linked). */
static int copy_at(int sfd, const char *name, int dfd, mode_t mode)
{
	int in = openat(sfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0)
		return -1;
	int out = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 0777);
	if (out < 0) {
		close(in);
		return -1;
	}
	char buf[65536];
	ssize_t r;
	int rc = 0;
	while ((r = read(in, buf, sizeof buf)) > 0)
		if (fl_write_all(out, buf, (size_t)r) < 0) {
			rc = -1;
			break;
		}
	if (r < 0)
		rc = -1;
	close(in);
	if (close(out) < 0)
		rc = -1;
	return rc;
}

static int link_tree_at(int sfd, int dfd, int depth)
{
	if (depth > PUB_TREE_DEPTH)
		return errno = ELOOP, -1;
	int dup_fd = dup(sfd);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return -1;
	}
	int rc = 0;
	struct dirent *de;
	while (rc == 0 && (de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		struct stat sb;
		if (fstatat(sfd, de->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
			rc = -1;
			break;
		}
		if (S_ISDIR(sb.st_mode)) {
			if (mkdirat(dfd, de->d_name, 0755) < 0 && errno != EEXIST) {
				rc = -1;
				break;
			}
			int s2 = openat(sfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			int d2 = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			rc = s2 < 0 || d2 < 0 ? -1 : link_tree_at(s2, d2, depth + 1);
			if (s2 >= 0)
				close(s2);
			if (d2 >= 0)
				close(d2);
		} else if (S_ISREG(sb.st_mode)) {
			if (linkat(sfd, de->d_name, dfd, de->d_name, 0) < 0 &&
			    copy_at(sfd, de->d_name, dfd, sb.st_mode) < 0)
				rc = -1;
		}
		/* anything else (a link, a FIFO) is not part of a site */
	}
	closedir(d);
	return rc;
}

int pub_link_tree(const char *src, const char *dst, fl_err *err)
{
	int sfd = open(src, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int dfd = open(dst, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc = sfd < 0 || dfd < 0 ? -1 : link_tree_at(sfd, dfd, 0);
	if (rc < 0)
		fl_seterr(err, "cannot copy %s to %s: %s", src, dst, strerror(errno));
	if (sfd >= 0)
		close(sfd);
	if (dfd >= 0)
		close(dfd);
	return rc;
}

DIR *pub_opendir_nofollow(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (fd >= 0 && !d)
		close(fd);
	return d;
}

/* ---- a data set's files ------------------------------------------------------- */

const char *pub_kind(unsigned mode)
{
	if (S_ISLNK(mode))
		return "a symbolic link";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISDIR(mode))
		return "a folder";
	if (S_ISREG(mode))
		return "a regular file";
	return "an unknown kind of file";
}

static int refuse_kind(fl_err *err, const char *root, const char *rel, size_t rl,
		       unsigned mode, const char *want, const char *what)
{
	return fl_seterr(err, "%s/%.*s: %s, not %s (%s holds only regular files and folders; no link is followed)",
			 root, (int)rl, rel, pub_kind(mode), want, what);
}

/* One component at a time: fstatat (no link followed) says what it is
 * before anything is opened, openat with O_NOFOLLOW opens it, fstat checks
 * that what was opened is still that. */
static int open_walk(int rootfd, const char *root, const char *rel, struct stat *sb,
		     fl_err *err)
{
	int dfd = rootfd;
	const char *s = rel;
	for (;;) {
		const char *slash = strchr(s, '/');
		size_t n = slash ? (size_t)(slash - s) : strlen(s), upto = (size_t)(s - rel) + n;
		char name[256];
		if (n == 0 || n >= sizeof name) {
			fl_seterr(err, "%s/%s: not a path inside the data set", root, rel);
			errno = EINVAL;
			break;
		}
		memcpy(name, s, n);
		name[n] = '\0';
		struct stat st;
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			int e = errno;
			fl_seterr(err, "%s/%.*s: missing or unreadable (%s)", root, (int)upto, rel, strerror(e));
			errno = e;
			break;
		}
		if (slash ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) {
			refuse_kind(err, root, rel, upto, st.st_mode, slash ? "a folder" : "a regular file", "a data set");
			errno = EPERM;
			break;
		}
		int fd = openat(dfd, name, slash ? O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
						 : O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0) {
			int e = errno;
			if (e == ELOOP)
				refuse_kind(err, root, rel, upto, S_IFLNK, slash ? "a folder" : "a regular file", "a data set");
			else
				fl_seterr(err, "%s/%.*s: cannot open: %s", root, (int)upto, rel, strerror(e));
			errno = e == ELOOP ? EPERM : e;
			break;
		}
		if (dfd != rootfd)
			close(dfd);
		dfd = fd;
		if (fstat(fd, &st) < 0 || (slash ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) {
			refuse_kind(err, root, rel, upto, st.st_mode, slash ? "a folder" : "a regular file", "a data set");
			errno = EPERM;
			break;
		}
		if (!slash) {
			*sb = st;
			return fd;
		}
		s = slash + 1;
	}
	int e = errno;
	if (dfd != rootfd)
		close(dfd);
	errno = e;
	return -1;
}

int pub_open_beneath(int rootfd, const char *root, const char *rel, struct stat *sb,
		     fl_err *err)
{
#ifdef SYS_openat2
	/* the common case in one system call (after a stat that opens
	 * nothing); any doubt, and the walk names the problem */
	static _Atomic int no_openat2;
	struct stat pre;
	if (!no_openat2 && fstatat(rootfd, rel, &pre, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(pre.st_mode)) {
		struct open_how how = {
			.flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
		};
		int fd = (int)syscall(SYS_openat2, rootfd, rel, &how, sizeof how);
		if (fd < 0 && (errno == ENOSYS || errno == EPERM || errno == E2BIG))
			no_openat2 = 1; /* an old kernel, or a filter */
		if (fd >= 0) {
			if (fstat(fd, sb) == 0 && S_ISREG(sb->st_mode))
				return fd;
			close(fd);
		}
	}
#endif
	return open_walk(rootfd, root, rel, sb, err);
}

char *pub_read_beneath(int rootfd, const char *root, const char *rel, long long want,
		       const char *who, uint64_t max, size_t *len, fl_err *err)
{
	struct stat sb;
	int fd = pub_open_beneath(rootfd, root, rel, &sb, err);
	if (fd < 0)
		return NULL;
	uint64_t size = (uint64_t)sb.st_size;
	char *buf = NULL;
	if (want >= 0 && size != (uint64_t)want)
		fl_seterr(err, "%s/%s: bytes: is %llu, %s says %lld (truncated or changed)",
			  root, rel, (unsigned long long)size, who, want);
	else if (size > max)
		fl_seterr(err, "%s/%s: %llu bytes, over the limit of %llu bytes of a data set file",
			  root, rel, (unsigned long long)size, (unsigned long long)max);
	else if (!(buf = fl_read_fd(fd, (size_t)size, true, len)))
		fl_seterr(err, "%s/%s: cannot read: %s", root, rel, strerror(errno));
	else if (*len != size) {
		fl_seterr(err, "%s/%s: bytes: is %zu, was %llu a moment before (changed while read)",
			  root, rel, *len, (unsigned long long)size);
		free(buf);
		buf = NULL;
	}
	close(fd);
	if (!buf)
		errno = EINVAL; /* not ENOENT: the file is there */
	return buf;
}

static int tree_at(int dfd, const char *root, const char *what, fl_buf *rel, int depth,
		   fl_err *err)
{
	if (depth > PUB_TREE_DEPTH)
		return fl_seterr(err, "%s/%s: more than %d folders deep", root, rel->s, PUB_TREE_DEPTH);
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return fl_seterr(err, "%s/%s: cannot read the folder: %s", root, rel->s ? rel->s : "", strerror(errno));
	}
	size_t base = rel->n;
	int rc = 0;
	struct dirent *de;
	while (rc == 0 && (errno = 0, de = readdir(d))) {
		const char *nm = de->d_name;
		if (strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0)
			continue;
		rel->n = base;
		if (base)
			fl_buf_putc(rel, '/');
		fl_buf_puts(rel, nm);
		fl_buf_cstr(rel);
		unsigned char t = de->d_type;
		unsigned mode = t == DT_REG ? S_IFREG : t == DT_DIR ? S_IFDIR : t == DT_LNK ? S_IFLNK
			      : t == DT_FIFO ? S_IFIFO : t == DT_SOCK ? S_IFSOCK : t == DT_CHR ? S_IFCHR
			      : t == DT_BLK ? S_IFBLK : 0;
		if (!mode) {
			struct stat st;
			if (fstatat(dirfd(d), nm, &st, AT_SYMLINK_NOFOLLOW) < 0) {
				rc = fl_seterr(err, "%s/%s: %s", root, rel->s, strerror(errno));
				break;
			}
			mode = st.st_mode;
		}
		if (S_ISREG(mode))
			continue;
		if (!S_ISDIR(mode)) {
			rc = refuse_kind(err, root, rel->s, rel->n, mode, "a regular file or a folder", what);
			break;
		}
		int fd = openat(dirfd(d), nm, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			rc = errno == ELOOP || errno == ENOTDIR
				? refuse_kind(err, root, rel->s, rel->n, S_IFLNK, "a folder", what)
				: fl_seterr(err, "%s/%s: cannot open the folder: %s", root, rel->s, strerror(errno));
			break;
		}
		rc = tree_at(fd, root, what, rel, depth + 1, err);
	}
	if (rc == 0 && errno != 0)
		rc = fl_seterr(err, "%s/%s: cannot read the folder: %s", root, rel->s ? rel->s : "", strerror(errno));
	rel->n = base;
	if (rel->s)
		rel->s[base] = '\0';
	closedir(d);
	return rc;
}

int pub_check_tree(int rootfd, const char *root, const char *what, fl_err *err)
{
	int fd = openat(rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fl_seterr(err, "%s: cannot read the folder: %s", root, strerror(errno));
	fl_buf rel = {0};
	fl_buf_cstr(&rel);
	int rc = tree_at(fd, root, what, &rel, 0, err);
	fl_buf_free(&rel);
	return rc;
}

/* Copy the open regular file fd (size bytes) into a new file dst. */
static int copy_fd(int fd, uint64_t size, const char *dst, fl_err *err)
{
	int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0)
		return fl_seterr(err, "%s: cannot write: %s", dst, strerror(errno));
	char *buf = fl_xmalloc(256 * 1024);
	uint64_t done = 0;
	int rc = 0;
	while (rc == 0 && done < size) {
		size_t want = size - done < 256 * 1024 ? (size_t)(size - done) : 256 * 1024;
		ssize_t r = read(fd, buf, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			rc = fl_seterr(err, "%s: the source shrank or failed while copied: %s", dst,
				       r < 0 ? strerror(errno) : "early end");
		else if (fl_write_all(out, buf, (size_t)r) < 0)
			rc = fl_seterr(err, "%s: cannot write: %s", dst, strerror(errno));
		else
			done += (uint64_t)r;
	}
	free(buf);
	if (close(out) < 0 && rc == 0)
		rc = fl_seterr(err, "%s: cannot write: %s", dst, strerror(errno));
	return rc;
}

int pub_copy_listed(int rootfd, const char *root, const char *dst, char *const *rels,
		    size_t n, fl_err *err)
{
	if (pub_mkdirs(dst, err) < 0)
		return -1;
	char *made = fl_xstrdup(""); /* the last folder made */
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct stat sb, lb;
		int fd = pub_open_beneath(rootfd, root, rels[i], &sb, err);
		if (fd < 0) {
			rc = -1;
			break;
		}
		char *to = fl_xasprintf("%s/%s", dst, rels[i]);
		char *slash = strrchr(to, '/');
		*slash = '\0';
		if (strcmp(made, to) != 0) {
			rc = pub_mkdirs(to, err);
			free(made);
			made = fl_xstrdup(to);
		}
		*slash = '/';
		char *from = fl_xasprintf("%s/%s", root, rels[i]);
		/* data set files are never changed in place (an export writes a
		 * new folder): a hard link is a faithful, instant copy; linkat
		 * does not follow a link it is given, and the inode must be the
		 * regular file opened above, beneath the data set */
		if (rc == 0 && linkat(AT_FDCWD, from, AT_FDCWD, to, 0) == 0) {
			if (lstat(to, &lb) < 0 || lb.st_ino != sb.st_ino || lb.st_dev != sb.st_dev) {
				unlink(to);
				rc = fl_seterr(err, "%s: changed while it was copied", from);
			}
		} else if (rc == 0) {
			rc = copy_fd(fd, (uint64_t)sb.st_size, to, err);
		}
		close(fd);
		free(from);
		free(to);
	}
	free(made);
	return rc;
}

static void to_hex(const unsigned char md[32], char out[65])
{
	static const char hex[] = "0123456789abcdef";
	for (int i = 0; i < 32; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[64] = '\0';
}

void pub_sha256_hex(const void *data, size_t n, char out[65])
{
	unsigned char md[32];
	fl_sha256(data, n, md);
	to_hex(md, out);
}

int pub_sha256_fd_hex(int fd, uint64_t max, char out[65], uint64_t *n)
{
	unsigned char md[32];
	if (fl_sha256_fd(fd, max, md, n) < 0)
		return -1;
	to_hex(md, out);
	return 0;
}

char *pub_json_dump(json_t *o, bool escape_html)
{
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER |
				       (escape_html ? JSON_ESCAPE_SLASH : 0));
	if (!s || !escape_html)
		return s;
	fl_buf b = {0};
	for (const char *p = s; *p; p++) {
		if (*p == '<')
			fl_buf_puts(&b, "\\u003c");
		else if (*p == '>')
			fl_buf_puts(&b, "\\u003e");
		else if (*p == '&')
			fl_buf_puts(&b, "\\u0026");
		else
			fl_buf_putc(&b, *p);
	}
	free(s);
	fl_buf_cstr(&b);
	return b.s;
}

size_t pub_threads(size_t n)
{
	long c = sysconf(_SC_NPROCESSORS_ONLN);
	size_t t = c < 1 ? 1 : c > 4 ? 4 : (size_t)c;
	if (n < 64)
		t = 1;
	return t;
}

long long pub_iso_ms(const char *s)
{
	int Y, M, D, h, m, sec, ms = 0;
	char z = 0;
	if (!s)
		return -1;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%3d%c", &Y, &M, &D, &h, &m, &sec, &ms, &z) != 8 &&
	    (ms = 0, sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &Y, &M, &D, &h, &m, &sec, &z) != 7))
		return -1;
	if (z != 'Z')
		return -1;
	struct tm tm = {0};
	tm.tm_year = Y - 1900;
	tm.tm_mon = M - 1;
	tm.tm_mday = D;
	tm.tm_hour = h;
	tm.tm_min = m;
	tm.tm_sec = sec;
	time_t t = timegm(&tm);
	if (t == (time_t)-1)
		return -1;
	return (long long)t * 1000 + ms;
}

void pub_ms_iso(long long ms, char out[32])
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	gmtime_r(&t, &tm);
	size_t n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out + n, 32 - n, ".%03dZ", (int)(ms % 1000));
}
