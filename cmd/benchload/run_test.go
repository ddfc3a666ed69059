package main

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestParseOptions(t *testing.T) {
	o, err := parseOptions(nil, env(nil), io.Discard)
	require.NoError(t, err)
	assert.Equal(t, options{bindery: "bin/bindery", duration: 10 * time.Second, warmup: time.Second, concurrency: 8, rounds: 1,
		workloads: []string{"get", "node", "nested", "list", "site", "heavy", "growth"}, variants: [][]string{nil},
		shape: shape{SpacesA: 1000, SpacesB: 50, ChangeRequests: 10, HeavyPages: 251}, growthPages: []int{20, 2000, 10000}, growthCalls: 20,
		sitePages: 500, searchOrg: searchOrg{Pages: 100000, Spaces: 100}}, o)
	assert.False(t, o.selected("search"), "search runs only when named")

	pg := "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	o, err = parseOptions(nil, env(map[string]string{"BENCH_DURATION": "3s", "BENCH_CONCURRENCY": "4", "BENCH_ROUNDS": "3",
		"BINDERY_TEST_DATABASE_URL": pg, "POSTGRAPHILE": "yes", "BENCH_WORKLOADS": "heavy,nested",
		"BENCH_VARIANTS": "default; GOGC=off GOMEMLIMIT=72MiB", "BENCH_GROWTH_PAGES": "500, 5",
		"BENCH_SEARCH_ORG_PAGES": "300", "BENCH_SEARCH_ORG_SPACES": "3"}), io.Discard)
	require.NoError(t, err)
	assert.Equal(t, []string{"heavy", "nested"}, o.workloads)
	assert.Equal(t, [][]string{nil, {"GOGC=off", "GOMEMLIMIT=72MiB"}}, o.variants)
	assert.True(t, o.selected("nested"))
	assert.False(t, o.selected("get"))
	assert.Equal(t, 3*time.Second, o.duration)
	assert.Equal(t, 4, o.concurrency)
	assert.Equal(t, 3, o.rounds)
	assert.Equal(t, pg, o.postgres)
	assert.True(t, o.postgraphile)
	assert.Equal(t, []int{5, 500}, o.growthPages, "smallest first")
	assert.Equal(t, searchOrg{Pages: 300, Spaces: 3}, o.searchOrg)

	o, err = parseOptions([]string{"--duration", "1s", "--concurrency", "2", "--pg", "", "--postgraphile=false",
		"--org-a-spaces", "5", "--org-b-spaces", "2", "--change-requests", "3", "--heavy-pages", "7", "--bindery", "/x/bindery",
		"--workloads", "nested,heavy,nested", "--variant", "GOGC=200", "--variant", "default",
		"--growth-pages", "12,3", "--growth-calls", "4", "--site-pages", "30", "--search-org-pages", "20", "--search-org-spaces", "2",
		"--rounds", "5"},
		env(map[string]string{"BENCH_DURATION": "3s", "BENCH_ROUNDS": "3", "BINDERY_TEST_DATABASE_URL": pg, "POSTGRAPHILE": "1",
			"BENCH_WORKLOADS": "get", "BENCH_VARIANTS": "GOGC=50", "BENCH_GROWTH_PAGES": "7",
			"BENCH_SEARCH_ORG_PAGES": "300", "BENCH_SEARCH_ORG_SPACES": "3"}), io.Discard)
	require.NoError(t, err, "flags override the environment")
	assert.Equal(t, options{bindery: "/x/bindery", duration: time.Second, warmup: time.Second, concurrency: 2, rounds: 5,
		workloads: []string{"nested", "heavy"}, variants: [][]string{{"GOGC=200"}, nil},
		shape: shape{SpacesA: 5, SpacesB: 2, ChangeRequests: 3, HeavyPages: 7}, growthPages: []int{3, 12}, growthCalls: 4,
		sitePages: 30, searchOrg: searchOrg{Pages: 20, Spaces: 2}}, o)

	o, err = parseOptions([]string{"--workloads", "search,growth"}, env(nil), io.Discard)
	require.NoError(t, err)
	assert.Equal(t, []string{"search", "growth"}, o.workloads)
}

func TestParseOptionsErrors(t *testing.T) {
	for name, c := range map[string]struct {
		args []string
		env  map[string]string
		want string
	}{
		"bad duration":               {env: map[string]string{"BENCH_DURATION": "10"}, want: "BENCH_DURATION"},
		"bad concurrency":            {env: map[string]string{"BENCH_CONCURRENCY": "many"}, want: "BENCH_CONCURRENCY"},
		"bad POSTGRAPHILE":           {env: map[string]string{"POSTGRAPHILE": "maybe"}, want: "POSTGRAPHILE"},
		"zero duration":              {args: []string{"--duration", "0s"}, want: "duration"},
		"no concurrency":             {args: []string{"--concurrency", "0"}, want: "concurrency"},
		"no rounds":                  {args: []string{"--rounds", "0"}, want: "the rounds must be at least 1"},
		"bad BENCH_ROUNDS":           {env: map[string]string{"BENCH_ROUNDS": "three"}, want: "BENCH_ROUNDS"},
		"PostGraphile on SQLite":     {env: map[string]string{"POSTGRAPHILE": "true"}, want: "PostGraphile needs PostgreSQL"},
		"too many spaces in a page":  {args: []string{"--org-b-spaces", "51"}, want: "at most 50"},
		"no spaces":                  {args: []string{"--org-a-spaces", "0"}, want: "at least one space"},
		"stray argument":             {args: []string{"now"}, want: "unexpected arguments now"},
		"unknown workload":           {args: []string{"--workloads", "get,fast"}, want: `unknown workload "fast"`},
		"no workload":                {args: []string{"--workloads", ","}, want: "no workload chosen"},
		"bad BENCH_WORKLOADS":        {env: map[string]string{"BENCH_WORKLOADS": "all"}, want: "BENCH_WORKLOADS"},
		"a variant that is no env":   {args: []string{"--variant", "GOGC"}, want: `"GOGC" is not NAME=VALUE`},
		"bad BENCH_VARIANTS":         {env: map[string]string{"BENCH_VARIANTS": "default;=1"}, want: "BENCH_VARIANTS"},
		"no heavy pages":             {args: []string{"--heavy-pages", "0"}, want: "one page"},
		"unknown flag":               {args: []string{"--fast"}, want: "invalid usage"},
		"no growth pages":            {args: []string{"--growth-pages", "20,0"}, want: `"0" is not a number of pages`},
		"bad BENCH_GROWTH_PAGES":     {env: map[string]string{"BENCH_GROWTH_PAGES": ","}, want: "BENCH_GROWTH_PAGES"},
		"no growth calls":            {args: []string{"--growth-calls", "0"}, want: "at least one call"},
		"no site pages":              {args: []string{"--site-pages", "0"}, want: "the site workload needs a page"},
		"fewer pages than spaces":    {args: []string{"--search-org-pages", "2", "--search-org-spaces", "3"}, want: "a page in each"},
		"no search spaces":           {args: []string{"--search-org-spaces", "0"}, want: "needs a space"},
		"bad BENCH_SEARCH_ORG_PAGES": {env: map[string]string{"BENCH_SEARCH_ORG_PAGES": "many"}, want: "BENCH_SEARCH_ORG_PAGES"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := parseOptions(c.args, env(c.env), io.Discard)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestHelp(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(t.Context(), []string{"benchload", "run", "--help"}, env(nil), io.Discard, &out))
	assert.Contains(t, out.String(), "-concurrency")
}

func TestUnknownCommand(t *testing.T) {
	err := run(t.Context(), []string{"benchload", "frobnicate"}, env(nil), io.Discard, io.Discard)
	require.ErrorIs(t, err, errUsage)
}
