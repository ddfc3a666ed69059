package app

import (
	"html/template"
	"strconv"
	"time"
)

func itoa(n int) string { return strconv.Itoa(n) }

// funcs are the templates' functions.
var funcs = template.FuncMap{
	"datetime": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"date":     func(t time.Time) string { return t.UTC().Format("January 2, 2006") },
}
