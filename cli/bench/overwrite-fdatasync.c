/* The overwrite-fdatasync loop in plain C: preallocate and fsync N blocks, then N rounds of
 * pwrite(one existing block) + fdatasync, each round timed with CLOCK_MONOTONIC.
 * Prints the median round in microseconds. Usage: overwrite-fdatasync DIR ROUNDS [BLOCK] */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int cmp(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s DIR ROUNDS [BLOCK]\n", argv[0]);
        return 2;
    }
    long rounds = atol(argv[2]);
    long bs = argc > 3 ? atol(argv[3]) : 4096;
    if (rounds < 1 || bs < 512) {
        fprintf(stderr, "bad rounds or block size\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/.bench-c-%d.probe", argv[1], (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        fprintf(stderr, "open %s: %s\n", path, strerror(errno));
        return 1;
    }
    char *buf = malloc(bs);
    for (long i = 0; i < bs; i++) buf[i] = (char)(0x5A ^ i);
    long *ns = malloc(sizeof(long) * rounds);
    int rc = 0;
    for (long i = 0; i < rounds; i++) {
        if (pwrite(fd, buf, bs, i * bs) != bs) { perror("pwrite"); rc = 1; goto out; }
    }
    if (fsync(fd) != 0) { perror("fsync"); rc = 1; goto out; }
    for (long i = 0; i < rounds; i++) {
        long t0 = now_ns();
        if (pwrite(fd, buf, bs, i * bs) != bs) { perror("pwrite"); rc = 1; goto out; }
        if (fdatasync(fd) != 0) { perror("fdatasync"); rc = 1; goto out; }
        ns[i] = now_ns() - t0;
    }
    qsort(ns, rounds, sizeof(long), cmp);
    printf("%.3f\n", ns[rounds / 2] / 1000.0);
out:
    close(fd);
    unlink(path);
    return rc;
}
