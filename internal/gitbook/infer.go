package gitbook

import (
	"path"
	"sort"
	"strings"
)

// inferTree is the table of contents of a project directory without
// SUMMARY.md, from its folders, as GitBook derives it: the readme first,
// then the markdown files and folders of each folder by name. A folder's
// README.md is its page; a top-level folder without one is a group, a
// deeper one a page without content. Folders starting with "." (such as
// .gitbook) hold no pages.
func (im *importer) inferTree() []*entry {
	dirs := map[string]map[string]bool{} // folder → names of its files and folders with markdown
	for p := range im.files {
		if !strings.HasSuffix(p, ".md") || hiddenPath(p) {
			continue
		}
		for p != "" {
			d := dirOf(p)
			if dirs[d] == nil {
				dirs[d] = map[string]bool{}
			}
			dirs[d][path.Base(p)] = true
			p = d
		}
	}
	var top []*entry
	if _, ok := im.files[im.cfg.Readme]; ok {
		top = append(top, &entry{target: im.cfg.Readme})
	}
	return append(top, im.folder(dirs, "")...)
}

// folder is the entries of the files and folders of dir, by name.
func (im *importer) folder(dirs map[string]map[string]bool, dir string) []*entry {
	names := make([]string, 0, len(dirs[dir]))
	for name := range dirs[dir] {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []*entry
	for _, name := range names {
		full := joinPath(dir, name)
		if dirs[full] != nil {
			e := &entry{title: name, children: im.folder(dirs, full)}
			switch readme := full + "/" + readmeName; {
			case dirs[full][readmeName]:
				e.target = readme
			case dir == "":
				e.group, e.folder = true, name
			default:
				e.folder = name
			}
			out = append(out, e)
			continue
		}
		if full == im.cfg.Readme || dir != "" && name == readmeName {
			continue
		}
		out = append(out, &entry{title: strings.TrimSuffix(name, ".md"), target: full})
	}
	return out
}

// hiddenPath reports whether a path is in a folder starting with ".".
func hiddenPath(p string) bool {
	return strings.HasPrefix(p, ".") || strings.Contains(p, "/.")
}
