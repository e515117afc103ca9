/*
 * static_server.c — a minimal HTTP/1.0 static file server for the browser
 * tests (python is not guaranteed in CI and `faultline serve` may be
 * absent): serves ROOT on 127.0.0.1, a folder as its index.html, prints
 * the port it listens on, one request at a time.  /api/... answers 404 so
 * the search page falls back to the static shards.
 *
 * usage: static_server ROOT [PORTFILE]
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *ctype(const char *p)
{
	const char *dot = strrchr(p, '.');
	if (!dot)
		return "application/octet-stream";
	if (!strcmp(dot, ".html"))
		return "text/html; charset=utf-8";
	if (!strcmp(dot, ".css"))
		return "text/css; charset=utf-8";
	if (!strcmp(dot, ".js"))
		return "text/javascript; charset=utf-8";
	if (!strcmp(dot, ".json"))
		return "application/json";
	if (!strcmp(dot, ".xml"))
		return "application/xml";
	if (!strcmp(dot, ".txt"))
		return "text/plain; charset=utf-8";
	return "application/octet-stream";
}

static void send_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

static void reply(int fd, int status, const char *type, const char *body, size_t n)
{
	char head[256];
	int h = snprintf(head, sizeof head, "HTTP/1.0 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
			 "Connection: close\r\n\r\n", status, status == 200 ? "OK" : "Not Found", type, n);
	send_all(fd, head, (size_t)h);
	send_all(fd, body, n);
}

static int unhex(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static void serve(int fd, const char *root)
{
	char req[8192];
	size_t n = 0;
	while (n < sizeof req - 1) {
		ssize_t r = read(fd, req + n, sizeof req - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
		req[n] = '\0';
		if (strstr(req, "\r\n\r\n"))
			break;
	}
	req[n] = '\0';
	char path[4096];
	if (sscanf(req, "GET %4095s", path) != 1) {
		reply(fd, 404, "text/plain", "bad request\n", 12);
		return;
	}
	char *q = strchr(path, '?');
	if (q)
		*q = '\0';
	/* percent-decode; refuse .. */
	char dec[4096];
	size_t k = 0;
	for (size_t i = 0; path[i] && k < sizeof dec - 1; i++) {
		if (path[i] == '%' && unhex(path[i + 1]) >= 0 && unhex(path[i + 2]) >= 0) {
			dec[k++] = (char)(unhex(path[i + 1]) * 16 + unhex(path[i + 2]));
			i += 2;
		} else {
			dec[k++] = path[i];
		}
	}
	dec[k] = '\0';
	if (strstr(dec, "..") || strncmp(dec, "/api/", 5) == 0) {
		reply(fd, 404, "text/plain", "not found\n", 10);
		return;
	}
	char file[8192];
	snprintf(file, sizeof file, "%s%s", root, dec);
	struct stat sb;
	if (stat(file, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		strncat(file, dec[k - 1] == '/' ? "index.html" : "/index.html", sizeof file - strlen(file) - 1);
	}
	int f = open(file, O_RDONLY);
	if (f < 0 || fstat(f, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		if (f >= 0)
			close(f);
		reply(fd, 404, "text/plain", "not found\n", 10);
		return;
	}
	char *body = malloc((size_t)sb.st_size + 1);
	ssize_t got = body ? read(f, body, (size_t)sb.st_size) : -1;
	close(f);
	if (got == sb.st_size)
		reply(fd, 200, ctype(file), body, (size_t)got);
	else
		reply(fd, 404, "text/plain", "not found\n", 10);
	free(body);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: static_server ROOT [PORTFILE]\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	int s = socket(AF_INET, SOCK_STREAM, 0);
	int one = 1;
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = 0;
	socklen_t al = sizeof a;
	if (bind(s, (struct sockaddr *)&a, sizeof a) < 0 || listen(s, 64) < 0 ||
	    getsockname(s, (struct sockaddr *)&a, &al) < 0) {
		perror("static_server");
		return 1;
	}
	if (argc > 2) {
		FILE *pf = fopen(argv[2], "w");
		if (pf) {
			fprintf(pf, "%d\n", ntohs(a.sin_port));
			fclose(pf);
		}
	}
	printf("%d\n", ntohs(a.sin_port));
	fflush(stdout);
	for (;;) {
		int c = accept(s, NULL, NULL);
		if (c < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		serve(c, argv[1]);
		close(c);
	}
}
