/* The workload of explore-files.sh: makes N files in DIR, each written once ("file I\n"), then fsyncs the first,
 * the one sync of the run: on a journaled filesystem (and the file model's journaled rules) it commits every name.
 * usage: make-files DIR N */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: make-files DIR N\n");
        return 2;
    }
    long n = strtol(argv[2], NULL, 10);
    char path[4096], line[64];
    for (long i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/f%ld", argv[1], i);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0) {
            perror(path);
            return 1;
        }
        int len = snprintf(line, sizeof line, "file %ld\n", i);
        if (write(fd, line, len) != len || close(fd) != 0) {
            perror(path);
            return 1;
        }
    }
    snprintf(path, sizeof path, "%s/f0", argv[1]);
    int fd = open(path, O_RDONLY);
    if (fd < 0 || fsync(fd) != 0) {
        perror(path);
        return 1;
    }
    return close(fd) != 0;
}
