#!/usr/bin/env bash
# A stand-in for the Go article's benchmark binary (cmd/bench of its code), so that the tests of
# lab/yardsticks/VersusGo.java need no Go. It speaks the same interface:
#
#   WORKERS=N go-bench-stand-in.sh -file=PATH [-runs=5] [-only=a,b] [-json=OUT] [-warm=true]
#
# one "run i: ..." line per run on stderr, a table on stdout, the JSON list
# [{"variant", "runs_seconds", "mean_seconds", "mb_per_second"}], exit 1 with "ERROR: ..." on a wrong
# answer, and an unknown -only name silently left out. Each run really searches: the file is cut into
# WORKERS shards, cmp compares each with /dev/zero, and the first differing byte is the answer.
#
# Like the real one, its first line on stderr is "ensuring FILE (N bytes)...", N the size it was
# built for. Where the real benchmark would then truncate, rewrite or plant a needle in its file (a
# missing file, one of another size, or one without the needle at size-8), the stand-in fails
# loudly with exit status 3 instead and leaves the file alone: reaching that point means the tool
# under test handed over a file it should have refused. With TRUNCATES_LIKE_THE_ARTICLE set it does
# what the real one does instead: opens the file with O_TRUNC and rewrites it with zeros to N bytes,
# then plants the needle.
#
# Tests make altered copies by editing the settings below (a variant missing, a wrong answer, a
# write to the haystack, the real one's truncation, a run time of its own).
set -euo pipefail

HAYSTACK_BYTES=$((1 << 20))      # the real benchmark is built for 4 GiB
VARIANTS="v1-naive-readall v10-populate-parallel-simd v11-pread-simd v2-bufio-byte v3-chunked-uint64 v4-mmap v5-mmap-madvise v6-mmap-parallel v7-pread-parallel v8-simd-avx2 v9-parallel-simd"
WRONG_ANSWER_FROM=""             # a variant name: it answers the word before the needle
WRITES_TO_HAYSTACK=""            # non-empty: it changes the haystack's time of last change, as a write would
TRUNCATES_LIKE_THE_ARTICLE=""    # non-empty: a file it would rewrite is rewritten, not refused
RUN_SECONDS=""                   # a number: every run's time in the JSON is this, whatever it took

loud() { echo "STAND-IN REFUSED: $*" >&2; exit 3; }

file=/tmp/haystack2g.bin runs=5 only="" json="" warm=true
for arg in "$@"; do
    case $arg in
        -file=*) file=${arg#-file=} ;;
        -runs=*) runs=${arg#-runs=} ;;
        -only=*) only=${arg#-only=} ;;
        -json=*) json=${arg#-json=} ;;
        -warm=*) warm=${arg#-warm=} ;;
        *) loud "an argument the tool should not pass: $arg" ;;
    esac
done
[[ ${WORKERS:-} =~ ^[1-9][0-9]*$ ]] || loud "WORKERS is '${WORKERS:-}', not a worker count (the tool must set it)"
echo "ensuring $file ($HAYSTACK_BYTES bytes)..." >&2
if [[ ! -e $file || $(stat -c %s -- "$file") != "$HAYSTACK_BYTES" ]]; then
    [[ -n $TRUNCATES_LIKE_THE_ARTICLE ]] || loud "$file is missing or has another size than $HAYSTACK_BYTES: the real benchmark would truncate and rewrite it"
    : >"$file"                                         # O_CREAT|O_TRUNC, as the article's code opens it
    truncate -s "$HAYSTACK_BYTES" -- "$file"
    dd if=/dev/zero of="$file" bs=65536 count=$((HAYSTACK_BYTES / 65536)) conv=notrunc status=none
fi
size=$(stat -c %s -- "$file")
if [[ $(tail -c 8 -- "$file" | od -An -tx1 | tr -d ' \n') != 2121454c4445454e ]]; then
    [[ -n $TRUNCATES_LIKE_THE_ARTICLE ]] || loud "$file has no needle at offset $((size - 8)): the real benchmark would write one there"
    printf '!!ELDEEN' | dd of="$file" bs=1 seek=$((size - 8)) conv=notrunc status=none
fi
want=$((size - 8))
echo "stand-in: WORKERS=$WORKERS, $WORKERS shards" >&2
[[ $warm == true ]] && cat -- "$file" >/dev/null

# The first non-zero byte's word, searching WORKERS shards in parallel.
search() {
    local per=$(( (size + WORKERS - 1) / WORKERS )) w pids=() answers
    answers=$(mktemp)
    for ((w = 0; w < WORKERS; w++)); do
        local start=$((w * per)) length=$per
        ((start < size)) || break
        ((start + length > size)) && length=$((size - start))
        ( hit=$(LC_ALL=C cmp -i "$start:0" -n "$length" -- "$file" /dev/zero 2>/dev/null | sed -n 's/.* differ: \(byte\|char\) \([0-9]*\).*/\2/p')
          [[ -n $hit ]] && echo $((start + hit - 1)) >>"$answers" ) &
        pids+=($!)
    done
    wait "${pids[@]}"
    local first
    first=$(sort -n "$answers" | head -n 1)
    rm -f "$answers"
    echo $(( first >= 0 ? first / 8 * 8 : -1 ))
}

rows=() table=()
for name in $VARIANTS; do
    [[ -z $only || ",$only," == *",$name,"* ]] || continue
    echo "== $name ==" >&2
    seconds=()
    for ((i = 1; i <= runs; i++)); do
        begin=$(date +%s%N)
        got=$(search)
        end=$(date +%s%N)
        [[ $name == "$WRONG_ANSWER_FROM" ]] && got=$((got - 8))
        if [[ $got != "$want" ]]; then
            echo "ERROR: $name: wrong offset got=$got want=$want" >&2
            exit 1
        fi
        s=$(awk -v ns=$((end - begin)) 'BEGIN { printf "%.6f", (ns > 0 ? ns : 1) / 1e9 }')
        [[ -n $RUN_SECONDS ]] && s=$RUN_SECONDS
        seconds+=("$s")
        echo "  run $i: ${s}s" >&2
    done
    [[ -n $WRITES_TO_HAYSTACK ]] && ((runs > 0)) && touch -d "@$(( $(date +%s) + 10 ))" -- "$file"
    if ((runs > 0)); then
        mean=$(printf '%s\n' "${seconds[@]}" | sort -g | awk '{ x[NR] = $1 } END { lo = NR >= 5 ? 2 : 1; hi = NR >= 5 ? NR - 1 : NR; for (i = lo; i <= hi; i++) s += x[i]; printf "%.9g", s / (hi - lo + 1) }')
        mbps=$(awk -v b="$size" -v m="$mean" 'BEGIN { printf "%.1f", b / m / 1e6 }')
    else
        mean=0 mbps=+Inf
    fi
    table+=("$(printf '%-28s  %10s  %10s' "$name" "$mean" "$mbps")")
    runs_json=$(IFS=,; echo "${seconds[*]:-}")
    rows+=("{\"variant\": \"$name\", \"runs_seconds\": [$runs_json], \"mean_seconds\": $mean, \"mb_per_second\": $mbps}")
done

printf '\n%-28s  %10s  %10s\n' variant 'mean(s)' 'MB/s'
for line in "${table[@]}"; do echo "$line"; done
if [[ -n $json ]] && ((runs > 0)); then # the real one cannot write +Inf as JSON either, and writes nothing
    (IFS=,; echo "[${rows[*]}]") >"$json"
fi
exit 0
