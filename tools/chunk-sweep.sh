#!/usr/bin/env bash
# Times chapter 3 (one thread, sequential reads) and chapter 13 (parallel preads, widest vectors)
# at every read size from 4 KiB to 64 MiB, one summary line (and --csv row) per size.
#
#   tools/chunk-sweep.sh haystack.bin --workers 2 --runs 5 --csv results/chunks.csv
#
# Every argument goes to both chapters unchanged; CHUNKS overrides the list of sizes.
set -euo pipefail

project_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
chunks=${CHUNKS:-4k,16k,64k,256k,1m,4m,16m,64m}

for chapter in V03ChunkedLong V13PreadVector; do
  "$project_dir/jbang" "$project_dir/variants/$chapter.java" "$@" --chunk "$chunks"
done
