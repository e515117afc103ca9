/*
 * fsutil.c — file-system helpers of the publishing code: mkdir -p, whole
 * file writes (also: only when changed), rm -rf, tree copies, SHA-256, JSON
 * dumps, ISO timestamps, the number of worker threads.
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

int pub_write_file(const char *path, const void *data, size_t n, fl_err *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return fl_seterr(err, "%s: cannot write: %s", path, strerror(errno));
	const char *p = data;
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			fl_seterr(err, "%s: cannot write: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	if (close(fd) < 0)
		return fl_seterr(err, "%s: cannot write: %s", path, strerror(errno));
	return 0;
}

int pub_write_if_changed(const char *path, const void *data, size_t n,
			 bool *written, fl_err *err)
{
	if (written)
		*written = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		struct stat sb;
		bool same = false;
		if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (size_t)sb.st_size == n) {
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

int pub_copytree(const char *src, const char *dst, fl_err *err)
{
	struct stat sb;
	if (stat(src, &sb) < 0)
		return fl_seterr(err, "%s: %s", src, strerror(errno));
	if (!S_ISDIR(sb.st_mode)) {
		/* data set files are never changed in place (an export writes a
		 * new folder): a hard link is a faithful, instant copy */
		if (link(src, dst) == 0)
			return 0;
		size_t len;
		char *data = fl_read_file(src, &len, err);
		if (!data)
			return -1;
		int rc = pub_write_file(dst, data, len, err);
		free(data);
		return rc;
	}
	if (pub_mkdirs(dst, err) < 0)
		return -1;
	DIR *d = opendir(src);
	if (!d)
		return fl_seterr(err, "%s: %s", src, strerror(errno));
	int rc = 0;
	struct dirent *de;
	while (rc == 0 && (de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		char *s = fl_xasprintf("%s/%s", src, de->d_name);
		char *t = fl_xasprintf("%s/%s", dst, de->d_name);
		rc = pub_copytree(s, t, err);
		free(s);
		free(t);
	}
	closedir(d);
	return rc;
}

void pub_sha256_hex(const void *data, size_t n, char out[65])
{
	unsigned char md[32];
	fl_sha256(data, n, md);
	static const char hex[] = "0123456789abcdef";
	for (int i = 0; i < 32; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[64] = '\0';
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
