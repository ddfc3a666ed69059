package document

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// richSample uses every construct the converter knows, nested where
// markdown allows it.
const richSample = "# Getting started\n\n" +
	"Bindery serves **documentation** through *GitBook's* API, with `code`,\n" +
	"~~old~~ text and a hard  \nbreak. See [the guide](../guide/setup.md#install), [home](https://example.com)\n" +
	"and <https://example.com/raw>.\n\n" +
	"## Install\n\n" +
	"![Architecture](.gitbook/assets/diagram.png)\n\n" +
	"1. Download ![icon](icon.png) the [**binary**](.gitbook/assets/whitepaper.pdf).\n" +
	"2. Run it:\n\n" +
	"   ```sh\n   ./bindery serve\n   ```\n\n" +
	"   | Flag | Meaning |\n   |------|:-------:|\n   | `-p` | port |\n\n" +
	"   - nested *item*\n     - deeper\n\n" +
	"### Tasks\n\n- [x] install\n- [ ] configure\n\n" +
	"> **Note**\n>\n> Quotes hold paragraphs,\n>\n> > nested quotes,\n>\n> - lists\n>\n> ```\n> and code\n> ```\n>\n> ![and images](x.png)\n\n" +
	"---\n\n" +
	"    indented code\n\n" +
	"<details>\n<summary>HTML</summary>\n</details>\n\n" +
	"| Left | Center | Right |\n|:-----|:------:|------:|\n| [a](#a) | **b** | c |\n\n" +
	"Final paragraph with a [page link](setup.md).\n"

var (
	specOnce sync.Once
	spec     *openapi3.T
	specErr  error
)

// jsonDocumentSchema returns the official spec's JSONDocument schema.
func jsonDocumentSchema(t *testing.T) *openapi3.Schema {
	t.Helper()
	specOnce.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		path := filepath.Join(filepath.Dir(file), "..", "..", "rest", "testdata", "gitbook-openapi-0.143.2.json")
		spec, specErr = openapi3.NewLoader().LoadFromFile(path)
	})
	require.NoError(t, specErr)
	ref := spec.Components.Schemas["JSONDocument"]
	require.NotNil(t, ref, "the spec has no JSONDocument schema")
	return ref.Value
}

// checkSchema validates a JSON document against the official schema.
func checkSchema(t *testing.T, schema *openapi3.Schema, doc []byte) error {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(doc, &v))
	return schema.VisitJSON(v)
}

func TestDocumentsMatchTheSpec(t *testing.T) {
	schema := jsonDocumentSchema(t)
	cases := append([]conversion{{name: "rich sample", markdown: richSample}}, conversions...)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := FromMarkdown(tc.markdown, Options{File: files, Page: pages})
			require.NoError(t, err)
			b, err := json.Marshal(d)
			require.NoError(t, err)
			assert.NoError(t, checkSchema(t, schema, b))
		})
	}
}

func TestSchemaRejectsInvalidNodes(t *testing.T) {
	schema := jsonDocumentSchema(t)
	d, err := FromMarkdown("# Title\n\n> quote", Options{})
	require.NoError(t, err)
	b, err := json.Marshal(d)
	require.NoError(t, err)
	require.NoError(t, checkSchema(t, schema, b), "the valid document must pass first")

	invalid := map[string]func(d *Document){
		"heading without data": func(d *Document) { d.Nodes[0].Data = nil },
		"unknown block type":   func(d *Document) { d.Nodes[0].Type = "heading-4" },
		"leaf without marks":   func(d *Document) { d.Nodes[0].Nodes[0].Leaves[0].Marks = nil },
		"code block in a quote": func(d *Document) {
			d.Nodes[1].Nodes = []*Node{block("code", map[string]any{}, []*Node{
				block("code-line", map[string]any{}, []*Node{plainText("x")}),
			})}
		},
		"divider that is not void": func(d *Document) {
			d.Nodes[0] = block("divider", map[string]any{}, nil)
		},
	}
	for name, breakIt := range invalid {
		t.Run(name, func(t *testing.T) {
			d, err := FromMarkdown("# Title\n\n> quote", Options{})
			require.NoError(t, err)
			breakIt(d)
			b, err := json.Marshal(d)
			require.NoError(t, err)
			assert.Error(t, checkSchema(t, schema, b), string(b))
		})
	}
}
