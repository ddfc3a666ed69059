package search

import (
	"iter"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/bindery/bindery/internal/apperr"
)

// Limits of a query.
const (
	// MaxQueryLength is the longest query, in characters (the official
	// API's maxLength).
	MaxQueryLength = 512
	// MaxTerms is the number of distinct words of a query that count; the
	// rest are ignored. Ranking costs a little per term.
	MaxTerms = 16
	// shortWord is the length up to which a word that is not the last one
	// matches whole words only: "a" or "to" as a prefix matches nearly
	// everything.
	shortWord = 2
)

// Fold is the form text is indexed and searched in: lower case, letters
// decomposed and their accents dropped, so that "Café" and "cafe" are one
// word.
func Fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range norm.NFKD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// token is a word of a text: where it is, and its folded form.
type token struct {
	start, end int
	folded     string
}

// tokens yields the words of text: runs of letters and digits, as both
// databases' indexes see them (the index is fed words joined by spaces, see
// Words), one at a time, so that a caller may stop at the word it looks
// for.
func tokens(text string) iter.Seq[token] {
	return func(yield func(token) bool) {
		start := -1
		for i, r := range text {
			word := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
			switch {
			case word && start < 0:
				start = i
			case !word && start >= 0:
				if t, ok := newToken(text, start, i); ok && !yield(t) {
					return
				}
				start = -1
			}
		}
		if start >= 0 {
			if t, ok := newToken(text, start, len(text)); ok {
				yield(t)
			}
		}
	}
}

// newToken is the word text[start:end], when its folded form has a letter
// or a digit. Folding may turn a character into several (ﬁ into fi) or
// into signs: only letters and digits are kept. A word of ASCII letters
// and digits, most words, folds to its lower case.
func newToken(text string, start, end int) (token, bool) {
	w := text[start:end]
	if isASCII(w) {
		return token{start: start, end: end, folded: strings.ToLower(w)}, true
	}
	folded := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, Fold(w))
	return token{start: start, end: end, folded: folded}, folded != ""
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Words returns the folded words of text joined by single spaces: the form
// both dialects index, so that they split text into the same words.
func Words(text string) string {
	var b strings.Builder
	for t := range tokens(text) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.folded)
	}
	return b.String()
}

// Term is a word of a query.
type Term struct {
	// Word is folded, letters and digits only.
	Word string
	// Prefix makes the term match words that start with Word.
	Prefix bool
}

// matches reports whether a folded word of a text matches the term.
func (t Term) matches(word string) bool {
	if t.Prefix {
		return strings.HasPrefix(word, t.Word)
	}
	return word == t.Word
}

// Query is a parsed search query.
type Query struct {
	Terms []Term
}

// ParseQuery checks and parses the text of a query (field names the
// argument in errors). Every word matches words that start with it, so
// that "install" finds "installation" and the last word matches while it
// is typed; a word of one or two characters that is not the last matches
// whole words only. Words repeat at most once; words past MaxTerms are
// ignored.
func ParseQuery(field, text string) (Query, error) {
	switch n := utf8.RuneCountInString(text); {
	case strings.TrimSpace(text) == "":
		return Query{}, apperr.Invalid(field, "is required: give the words to search for")
	case n > MaxQueryLength:
		return Query{}, apperr.Invalid(field, "must be at most %d characters, not %d", MaxQueryLength, n)
	}
	words := strings.Fields(Words(text))
	if len(words) == 0 {
		return Query{}, apperr.Invalid(field, "must contain a letter or a digit")
	}
	// Common English words match nearly every page, so they say nothing
	// and cost the most; they are left out, but for the last word, which
	// may be the start of another as it is typed, and a query of nothing
	// else.
	content := words[:0:0]
	for i, w := range words {
		if !stopWords[w] || i == len(words)-1 {
			content = append(content, w)
		}
	}
	if len(content) == 1 && stopWords[content[0]] && len(words) > 1 {
		content = words
	}
	words = content
	var q Query
	seen := map[string]int{}
	for i, w := range words {
		last := i == len(words)-1
		prefix := last || utf8.RuneCountInString(w) > shortWord
		if j, dup := seen[w]; dup {
			q.Terms[j].Prefix = q.Terms[j].Prefix || prefix
			continue
		}
		if len(q.Terms) == MaxTerms {
			continue
		}
		seen[w] = len(q.Terms)
		q.Terms = append(q.Terms, Term{Word: w, Prefix: prefix})
	}
	return q, nil
}

// stopWords are the common English words a query leaves out (see
// ParseQuery): articles, pronouns, prepositions, conjunctions and the forms
// of be, have and do.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but nor if then else so than that this these those
		i me my we our you your he him his she her it its they them their what which who whom
		am is are was were be been being have has had do does did
		of at by for with about to from in on into onto over under as not no`) {
		m[w] = true
	}
	return m
}()

// Marks returns the byte ranges of the words of text that match the query,
// in order: what a result shows marked.
func (q Query) Marks(text string) [][2]int {
	var out [][2]int
	for tok := range tokens(text) {
		for _, t := range q.Terms {
			if t.matches(tok.folded) {
				out = append(out, [2]int{tok.start, tok.end})
				break
			}
		}
	}
	return out
}
