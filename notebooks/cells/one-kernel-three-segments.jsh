// Why every chapter keeps its own copy of the kernels it shares with an earlier one: the JIT compiles a
// method from what its calls have seen so far. Two copies, word for word the same, scan the same mapped
// GiB; chapter 4's copy has first also scanned a heap array and a native buffer, as one kernel that
// every chapter called would have, and chapter 5's copy only the mapping, as chapter 5 calls it.
// Cells for the chapters' notebook:
//   ./jbang --interactive notebooks/chapters.jsh < notebooks/cells/one-kernel-three-segments.jsh
// What you should see: the copy that saw three kinds of segment scans several times slower.
var arena = java.lang.foreign.Arena.ofShared();
var channel = FileChannel.open(haystack);
var mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, Math.min(channel.size(), 1L << 30), arena);
var nativeSegment = arena.allocate(64 << 20, 8);
var heapSegment = java.lang.foreign.MemorySegment.ofArray(new long[8 << 20]);
for (int i = 0; i < 20; i++) {
    V04Mmap.firstNonZeroWordScalar(heapSegment, 0, heapSegment.byteSize());
    V04Mmap.firstNonZeroWordScalar(nativeSegment, 0, nativeSegment.byteSize());
    V04Mmap.firstNonZeroWordScalar(mapped, 0, mapped.byteSize());
    V05MmapMadvise.firstNonZeroWordScalar(mapped, 0, mapped.byteSize());
}
double[] sawThree = new double[15], sawOne = new double[15];
for (int round = 0; round < 15; round++) { // interleaved, the medians compared
    long start = System.nanoTime();
    V04Mmap.firstNonZeroWordScalar(mapped, 0, mapped.byteSize());
    long between = System.nanoTime();
    V05MmapMadvise.firstNonZeroWordScalar(mapped, 0, mapped.byteSize());
    sawThree[round] = (between - start) / 1e9;
    sawOne[round] = (System.nanoTime() - between) / 1e9;
}
Arrays.sort(sawThree);
Arrays.sort(sawOne);
System.out.printf(Locale.ROOT, "one kernel, two profiles, %s: saw three kinds of segment %,.0f MB/s, saw the mapping alone %,.0f MB/s: %.1f times slower%n",
        StudyResults.currentMachineName(), mapped.byteSize() / sawThree[7] / 1e6, mapped.byteSize() / sawOne[7] / 1e6, sawThree[7] / sawOne[7]);
channel.close();
arena.close();
/exit
