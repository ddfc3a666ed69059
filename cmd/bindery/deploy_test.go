package main

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/config"
)

// The deployment files stay true to the code: every setting they name
// exists, the commands they run exist, and the image builds with the Go
// that go.mod asks for. (make test builds the binary as the Dockerfile
// does, with make check-release; no Docker daemon is needed.)
func TestDeployFilesMatchTheCode(t *testing.T) {
	commands := 0
	known := map[string]bool{}
	for _, e := range config.Env {
		known[e.Name] = true
	}
	for _, file := range []string{"../../Dockerfile", "../../compose.yaml", "../../deploy/bindery.service"} {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		for _, name := range regexp.MustCompile(`BINDERY_[A-Z_]+`).FindAllString(string(b), -1) {
			assert.True(t, known[name], "%s names %s, which Bindery does not read", file, name)
		}
		for _, m := range regexp.MustCompile(`bindery (serve|migrate)((?: --[a-z-]+)*)`).FindAllStringSubmatch(string(b), -1) {
			commands++
			_, help, err := runCLI(t, nil, m[1], "--help")
			require.NoError(t, err)
			for _, flag := range regexp.MustCompile(`--([a-z-]+)`).FindAllStringSubmatch(m[2], -1) {
				assert.Contains(t, help, "  -"+flag[1]+" ", "%s runs %s --%s, which it does not take", file, m[1], flag[1])
			}
		}
	}
	assert.Positive(t, commands, "the systemd unit's commands are checked")
	mod, err := os.ReadFile("../../go.mod")
	require.NoError(t, err)
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	require.NotNil(t, goVersion)
	docker, _ := os.ReadFile("../../Dockerfile")
	assert.Contains(t, string(docker), "FROM golang:"+string(goVersion[1])+"-", "the image builds with go.mod's Go")
}
