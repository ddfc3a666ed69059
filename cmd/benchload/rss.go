package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A server's peak memory is the high-water mark of its resident set size
// (VmHWM in /proc/<pid>/status), summed over its processes. Writing 5 to
// /proc/<pid>/clear_refs resets the mark to the current size, so each
// workload reports its own peak.

// peakRSS returns the sum of the processes' peak resident set sizes, in
// bytes.
func peakRSS(pids []int) (int64, error) {
	var sum int64
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			return 0, err
		}
		n, err := parseVmHWM(b)
		if err != nil {
			return 0, fmt.Errorf("process %d: %w", pid, err)
		}
		sum += n
	}
	return sum, nil
}

// resetPeakRSS resets the processes' peaks to their current sizes.
func resetPeakRSS(pids []int) error {
	for _, pid := range pids {
		if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
			return fmt.Errorf("resetting the peak memory of process %d: %w", pid, err)
		}
	}
	return nil
}

// parseVmHWM reads VmHWM from the text of /proc/<pid>/status, in bytes.
func parseVmHWM(status []byte) (int64, error) {
	for line := range bytes.Lines(status) {
		rest, ok := bytes.CutPrefix(line, []byte("VmHWM:"))
		if !ok {
			continue
		}
		f := strings.Fields(string(rest))
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("unexpected VmHWM line %q", line)
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("unexpected VmHWM line %q", line)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("no VmHWM line")
}

// descendants returns root and the processes below it whose command line
// keep accepts. A process whose parent is skipped is still visited.
func descendants(root int, keep func(argv []string) bool) ([]int, error) {
	children := map[int][]int{}
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		return nil, err
	}
	for _, dir := range dirs {
		pid, _ := strconv.Atoi(filepath.Base(dir))
		b, err := os.ReadFile(dir + "/stat")
		if err != nil {
			continue // gone
		}
		if ppid, ok := parentOf(b); ok {
			children[ppid] = append(children[ppid], pid)
		}
	}
	var out []int
	var visit func(pid int)
	visit = func(pid int) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err == nil && keep(strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")) {
			out = append(out, pid)
		}
		for _, c := range children[pid] {
			visit(c)
		}
	}
	visit(root)
	return out, nil
}

// parentOf reads the parent's pid from the text of /proc/<pid>/stat. The
// command name, in parentheses, may hold spaces and parentheses itself.
func parentOf(stat []byte) (int, bool) {
	f := statFields(stat)
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// statFields returns the fields of the text of /proc/<pid>/stat that follow
// the command name, from field 3 (the state) on; none when it is
// malformed.
func statFields(stat []byte) []string {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(stat[i+1:]))
}
