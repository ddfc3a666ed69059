package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MemoryLimit is a soft memory limit for the Go runtime: Bytes when
// positive, else Percent of the memory limit of the process's cgroup (none
// when it has none); the zero value is no limit.
type MemoryLimit struct {
	Bytes   int64
	Percent int
}

// Of returns the limit in bytes on a machine whose cgroup allows cgroup
// bytes (0 for no cgroup limit), or math.MaxInt64 for no limit, the Go
// runtime's value for none.
func (m MemoryLimit) Of(cgroup int64) int64 {
	switch {
	case m.Bytes > 0:
		return m.Bytes
	case m.Percent > 0 && cgroup > 0:
		return int64(float64(cgroup) * float64(m.Percent) / 100)
	}
	return math.MaxInt64
}

// String writes the limit as ParseMemoryLimit reads it.
func (m MemoryLimit) String() string {
	switch {
	case m.Bytes > 0:
		return strconv.FormatInt(m.Bytes, 10) + "B"
	case m.Percent > 0:
		return strconv.Itoa(m.Percent) + "%"
	}
	return "off"
}

// sizeUnits are the suffixes GOMEMLIMIT takes, so that a value can move
// between the two variables.
var sizeUnits = []struct {
	suffix string
	shift  uint
}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}

// ParseMemoryLimit reads "off", a share of the cgroup's limit from "1%" to
// "100%", or a size in bytes with an optional unit as GOMEMLIMIT writes it
// (B, KiB, MiB, GiB, TiB).
func ParseMemoryLimit(s string) (MemoryLimit, error) {
	s = strings.TrimSpace(s)
	if s == "off" {
		return MemoryLimit{}, nil
	}
	if pct, ok := strings.CutSuffix(s, "%"); ok {
		n, err := strconv.Atoi(pct)
		if err != nil || n < 1 || n > 100 {
			return MemoryLimit{}, fmt.Errorf("%q is not a share from 1%% to 100%%", s)
		}
		return MemoryLimit{Percent: n}, nil
	}
	num, shift := s, uint(0)
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			num, shift = rest, u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 1 || n > math.MaxInt64>>shift {
		return MemoryLimit{}, fmt.Errorf("%q is neither off, a share such as 90%%, nor a size such as 512MiB", s)
	}
	return MemoryLimit{Bytes: n << shift}, nil
}
