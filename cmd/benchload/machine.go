package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// machine describes the computer the benchmark runs on: cores (as nproc
// counts them), CPU model, memory and kernel.
func machine() string {
	parts := []string{fmt.Sprintf("%d cores", runtime.NumCPU())}
	if model := procField("/proc/cpuinfo", "model name"); model != "" {
		parts = append(parts, model)
	}
	if mem := procField("/proc/meminfo", "MemTotal"); mem != "" {
		if kb, err := strconv.ParseInt(strings.TrimSuffix(mem, " kB"), 10, 64); err == nil {
			parts = append(parts, fmt.Sprintf("%d GiB RAM", (kb+1<<19)>>20))
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		parts = append(parts, "Linux "+string(bytes.TrimSpace(b)))
	}
	return strings.Join(parts, ", ")
}

// procField returns the value of the first "key: value" line of a /proc
// file, or "".
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		k, v, ok := strings.Cut(s.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
