package gitbook

import (
	"fmt"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Config is where a project directory's pages are, as .gitbook.yaml says.
// Every path is clean and relative, "" for the project directory itself.
type Config struct {
	// Root is the directory the pages, SUMMARY.md and .gitbook/assets are
	// in, relative to the project directory.
	Root string
	// Readme is the space's first page, relative to Root.
	Readme string
	// Summary is the table of contents, relative to Root.
	Summary string
}

// configFile is .gitbook.yaml as GitBook documents it.
type configFile struct {
	Root      string `yaml:"root"`
	Structure struct {
		Readme  string `yaml:"readme"`
		Summary string `yaml:"summary"`
	} `yaml:"structure"`
	Redirects any `yaml:"redirects"`
}

// ReadConfig reads .gitbook.yaml from a project directory's files, with
// GitBook's defaults for what it leaves out or when it is missing. As GitBook
// documents, structure paths are relative to root, not to the file. A
// caller writing an export into a repository whose configuration names a
// root puts the files under Config.Root.
func ReadConfig(files map[string][]byte) (Config, []string) {
	cfg := Config{Readme: readmeName, Summary: summaryName}
	src, ok := files[configName]
	if !ok {
		return cfg, nil
	}
	var f configFile
	if err := yaml.Unmarshal(src, &f); err != nil {
		return cfg, []string{fmt.Sprintf("%s is not valid YAML, so its defaults apply: %v", configName, err)}
	}
	var warnings []string
	set := func(dst *string, val, key string, dir bool) {
		if strings.TrimSpace(val) == "" {
			return
		}
		p, ok := cleanRel(val)
		if !ok || (!dir && p == "") {
			warnings = append(warnings, fmt.Sprintf("%s: %s %q is outside the project directory, so it is ignored", configName, key, val))
			return
		}
		*dst = p
	}
	set(&cfg.Root, f.Root, "root", true)
	set(&cfg.Readme, f.Structure.Readme, "structure.readme", false)
	set(&cfg.Summary, f.Structure.Summary, "structure.summary", false)
	if nonEmpty(f.Redirects) {
		warnings = append(warnings, fmt.Sprintf("%s: redirects are not supported, so they are ignored", configName))
	}
	return cfg, warnings
}

// cleanRel makes a clean relative path of p ("" for "./"), and says whether
// it stays inside the directory it is relative to.
func cleanRel(p string) (string, bool) {
	p = path.Clean(strings.TrimLeft(strings.TrimSpace(p), "/"))
	switch {
	case p == ".":
		return "", true
	case p == ".." || strings.HasPrefix(p, "../"):
		return "", false
	}
	return p, true
}

func nonEmpty(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case map[string]any:
		return len(v) > 0
	case []any:
		return len(v) > 0
	case string:
		return v != ""
	}
	return true
}

// within reports whether a path of a project directory's file has no ".."
// or empty segment and is not absolute: gitsync refuses such paths, and
// this package does not trust that it always will.
func within(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// Place moves the files Export wrote (by paths relative to the project
// directory, in GitBook's defaults) to where c says they go: under Root,
// with the table of contents under c's name. A table of contents in a
// directory of its own would need every link of it rewritten: it is
// refused.
func (c Config) Place(files map[string][]byte) (map[string][]byte, error) {
	if strings.Contains(c.Summary, "/") {
		return nil, fmt.Errorf("%s puts the table of contents in a directory (%s), where Bindery cannot write it", configName, c.Summary)
	}
	out := make(map[string][]byte, len(files))
	for p, b := range files {
		if p == summaryName {
			p = c.Summary
		}
		if c.Root != "" {
			p = c.Root + "/" + p
		}
		out[p] = b
	}
	return out, nil
}
