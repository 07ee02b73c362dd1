/*
 * flushcheck's guest probe: the same rounds as the host probe (io.flushcheck.probe.SyncProbe), in C so that
 * a guest without a JVM reports within seconds under software emulation.
 *
 *   probe DIR DEVICE ROUNDS BLOCK_SIZE MODE...
 *
 * Per mode it prints "begin MODE" and waits for one line on stdin before and after its loop, so that the
 * host reads its own disk's counters with nothing of the guest's in flight. Then, on stdout:
 *   stat MODE <writes> <sectors written> <flushes>   (the guest device's counter deltas over the loop)
 *   lat MODE <nanoseconds of each round, space-separated, several lines>
 *   end MODE <loop nanoseconds>
 * and "error MODE <what>: <strerror>" when a call fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char dir[256], statpath[256];
static int bs;

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long) t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void wait_go(void) {
    char line[64];
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin)) {
        exit(3);
    }
}

/* writes completed (field 5), sectors written (7), flushes completed (16) of /sys/block/DEV/stat */
static int read_stat(long long out[3]) {
    long long f[17] = {0};
    FILE *s = fopen(statpath, "r");
    if (!s) {
        return -1;
    }
    int n = 0;
    while (n < 17 && fscanf(s, "%lld", &f[n]) == 1) {
        n++;
    }
    fclose(s);
    out[0] = f[4];
    out[1] = f[6];
    out[2] = n >= 17 ? f[15] : -1;
    return 0;
}

static int fail(const char *mode, const char *what) {
    printf("error %s %s: %s\n", mode, what, strerror(errno));
    fflush(stdout);
    return -1;
}

static int run_mode(const char *mode, long rounds) {
    int append_fsync = !strcmp(mode, "append-fsync"), append_fdatasync = !strcmp(mode, "append-fdatasync");
    int overwrite = !strcmp(mode, "overwrite-fdatasync"), dsync = !strcmp(mode, "dsync");
    int flush_only = !strcmp(mode, "flush-only"), no_sync = !strcmp(mode, "no-sync");
    if (!(append_fsync || append_fdatasync || overwrite || dsync || flush_only || no_sync)) {
        errno = EINVAL;
        return fail(mode, "unknown mode");
    }
    char path[300];
    snprintf(path, sizeof path, "%s/probe-%s", dir, mode);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | (dsync ? O_DSYNC : 0), 0600);
    if (fd < 0) {
        return fail(mode, "open");
    }
    char *buf = malloc(bs);
    memset(buf, 0x5a, bs);
    long slots = 1;
    if (overwrite || flush_only) {
        /* preallocated and synced first, so the rounds change no size and no allocation */
        slots = overwrite ? rounds : 1;
        if (slots * (long long) bs > (64LL << 20)) {
            slots = (64LL << 20) / bs;
        }
        for (long i = 0; i < slots; i++) {
            if (pwrite(fd, buf, bs, (off_t) i * bs) != bs) {
                return fail(mode, "pwrite");
            }
        }
        if (fsync(fd)) {
            return fail(mode, "fsync");
        }
    }
    long long *lat = malloc(sizeof(long long) * rounds);
    long long before[3], after[3];
    printf("begin %s\n", mode);
    wait_go();
    read_stat(before);
    long long start = now_ns();
    for (long i = 0; i < rounds; i++) {
        long long t0 = now_ns();
        if (overwrite) {
            if (pwrite(fd, buf, bs, (off_t) (i % slots) * bs) != bs || fdatasync(fd)) {
                return fail(mode, "pwrite+fdatasync");
            }
        } else if (flush_only) {
            if (fdatasync(fd)) {
                return fail(mode, "fdatasync");
            }
        } else {
            if (write(fd, buf, bs) != bs) {
                return fail(mode, "write");
            }
            if ((append_fsync && fsync(fd)) || (append_fdatasync && fdatasync(fd))) {
                return fail(mode, append_fsync ? "fsync" : "fdatasync");
            }
        }
        lat[i] = now_ns() - t0;
    }
    long long loop = now_ns() - start;
    read_stat(after);
    printf("stat %s %lld %lld %lld\n", mode, after[0] - before[0], after[1] - before[1],
           after[2] < 0 || before[2] < 0 ? -1 : after[2] - before[2]);
    for (long i = 0; i < rounds; i++) {
        if (i % 50 == 0) {
            printf(i == 0 ? "lat %s %lld" : "\nlat %s %lld", mode, lat[i]);
        } else {
            printf(" %lld", lat[i]);
        }
    }
    printf("\nend %s %lld\n", mode, loop);
    wait_go();
    close(fd);
    unlink(path);
    free(lat);
    free(buf);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: probe DIR DEVICE ROUNDS BLOCK_SIZE MODE...\n");
        return 2;
    }
    snprintf(dir, sizeof dir, "%s", argv[1]);
    snprintf(statpath, sizeof statpath, "/sys/block/%s/stat", argv[2]);
    long rounds = atol(argv[3]);
    bs = atoi(argv[4]);
    if (rounds < 1 || bs < 512) {
        fprintf(stderr, "probe: bad rounds or block size\n");
        return 2;
    }
    for (int i = 5; i < argc; i++) {
        if (run_mode(argv[i], rounds)) {
            return 1;
        }
    }
    printf("done\n");
    fflush(stdout);
    return 0;
}
