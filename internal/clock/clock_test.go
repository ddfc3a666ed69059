package clock

import (
	"testing"
	"time"
)

func TestNowIsUTCMilliseconds(t *testing.T) {
	now := Now()
	if now.Location() != time.UTC {
		t.Errorf("Now() is in %v, want UTC", now.Location())
	}
	if now.Nanosecond()%int(time.Millisecond) != 0 {
		t.Errorf("Now() = %v has a finer part than milliseconds", now)
	}
}
