// The article's v8 kernel alone, in cache: the Go side of lab/yardsticks/KernelBench.java.
//
// This file is not built with the project. It is a Go benchmark for the package of the article's
// v8 (variants/v8_simd), whose kernel, firstNonZeroAVX2, is unexported: copy it into that folder
// of your checkout of the article's code and run, there,
//
//	go test -run '^$' -bench KernelAlone -count 5 ./variants/v8_simd
//
// Like KernelBench, each call scans a buffer of zeros, page-aligned, whose only non-zero byte is
// its last, so it reads every byte; the buffer is small enough to stay in the CPU's caches. Go
// prints MB/s (10^6 bytes a second): divide by 1000 for bytes per nanosecond, KernelBench's unit.
package v8simd

import (
	"fmt"
	"testing"
	"unsafe"
)

const pageBytes = 4096

// zerosEndingInOne returns size bytes starting on a page boundary, all zero but the last.
func zerosEndingInOne(size int) []byte {
	backing := make([]byte, size+pageBytes)
	skip := (pageBytes - int(uintptr(unsafe.Pointer(&backing[0]))%pageBytes)) % pageBytes
	buf := backing[skip : skip+size]
	buf[size-1] = 1
	return buf
}

func BenchmarkKernelAlone(b *testing.B) {
	for _, size := range []int{32 << 10, 256 << 10, 1 << 20} {
		b.Run(fmt.Sprintf("size=%dk", size>>10), func(b *testing.B) {
			buf := zerosEndingInOne(size) // a multiple of 128 bytes, as the kernel requires
			b.SetBytes(int64(size))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if found := firstNonZeroAVX2(&buf[0], size); found != size-1 {
					b.Fatalf("the kernel found byte %d, not %d", found, size-1)
				}
			}
		})
	}
}
