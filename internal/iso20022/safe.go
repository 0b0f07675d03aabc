package iso20022

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/complyd/complyd/internal/apperr"
)

// Limits of one message (docs/guide/iso20022.md "Limits"). The body itself is bounded before it is
// read by the transport (restapi.Limits.JSONBodyBytes, 1 MiB by default).
const (
	// MaxDepth bounds element nesting: the deepest path of the accepted definitions is about 12.
	MaxDepth = 32
	// MaxElements bounds the elements of one message (a 500-transaction pacs.008 with every
	// party is about 40,000).
	MaxElements = 100_000
	// MaxTransactions bounds the credit transfers of one message, as a batch is bounded.
	MaxTransactions = 500
)

// node is one element of a parsed message.
type node struct {
	name     string // local name
	space    string // namespace URI
	attrs    []xml.Attr
	text     string // character data directly inside the element, trimmed
	children []*node
	path     string         // e.g. /Document/FIToFICstmrCdtTrf/CdtTrfTxInf[2]
	seen     map[string]int // children so far by name, while parsing
}

// child returns the first child named name, or nil.
func (n *node) child(name string) *node {
	if n == nil {
		return nil
	}
	for _, c := range n.children {
		if c.name == name {
			return c
		}
	}
	return nil
}

// all returns the children named name.
func (n *node) all(name string) []*node {
	if n == nil {
		return nil
	}
	var out []*node
	for _, c := range n.children {
		if c.name == name {
			out = append(out, c)
		}
	}
	return out
}

// get follows a slash-separated path of child names and returns the text there, or "".
func (n *node) get(path string) string {
	if c := n.at(path); c != nil {
		return c.text
	}
	return ""
}

// at follows a slash-separated path of child names, or returns nil.
func (n *node) at(path string) *node {
	cur := n
	for _, p := range strings.Split(path, "/") {
		if cur = cur.child(p); cur == nil {
			return nil
		}
	}
	return cur
}

// attr returns the value of the attribute named name (no namespace), or "".
func (n *node) attr(name string) string {
	for _, a := range n.attrs {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value
		}
	}
	return ""
}

// refuse is the VALIDATION_ERROR of a message that is not read at all.
func refuse(path, msg string) error {
	return apperr.InvalidFields(apperr.FieldError{Field: path, Message: msg})
}

// parse reads one XML document into a tree, refusing what a payment message never needs and
// an attacker would: DTDs and entities (no expansion happens in encoding/xml, but a message that
// declares them is not a payment message), processing instructions, deep nesting, too many
// elements, text outside the root, more than one root, and invalid UTF-8.
func parse(body []byte) (*node, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, refuse("body", "is empty: an ISO 20022 XML message is required")
	}
	if !utf8.Valid(body) {
		return nil, refuse("body", "is not valid UTF-8")
	}
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = true
	d.Entity = nil // only the five predefined entities; any other reference is a syntax error
	d.CharsetReader = func(label string, _ io.Reader) (io.Reader, error) {
		return nil, fmt.Errorf("encoding %q is not accepted: messages are UTF-8", label)
	}
	var root *node
	var stack []*node
	elements := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, refuse("body", "is not well-formed XML: "+err.Error())
		}
		switch t := tok.(type) {
		case xml.Directive:
			return nil, refuse("body", "declares a document type or entities (<!"+firstWord(t)+">): not accepted")
		case xml.ProcInst:
			if t.Target != "xml" || root != nil || len(stack) > 0 {
				return nil, refuse("body", "contains a processing instruction <?"+t.Target+">: not accepted")
			}
		case xml.StartElement:
			elements++
			if elements > MaxElements {
				return nil, refuse("body", fmt.Sprintf("has more than %d elements", MaxElements))
			}
			if len(stack) >= MaxDepth {
				return nil, refuse(stack[len(stack)-1].path, fmt.Sprintf("nests deeper than %d elements", MaxDepth))
			}
			n := &node{name: t.Name.Local, space: t.Name.Space, attrs: t.Attr}
			if len(stack) > 0 && n.space != root.space {
				// Every element of a message is in its definition's namespace; an element of
				// another (an extension, a signature) is not part of any accepted definition.
				return nil, refuse(fmt.Sprintf("%s/%s", stack[len(stack)-1].path, n.name),
					"is in namespace "+strconvQuote(n.space)+", not the message's "+strconvQuote(root.space))
			}
			if len(stack) == 0 {
				if root != nil {
					return nil, refuse("body", "has more than one root element")
				}
				root = n
				n.path = "/" + n.name
			} else {
				p := stack[len(stack)-1]
				if p.seen == nil {
					p.seen = map[string]int{}
				}
				p.seen[n.name]++
				n.path = fmt.Sprintf("%s/%s[%d]", p.path, n.name, p.seen[n.name])
				p.children = append(p.children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			n := stack[len(stack)-1]
			n.text = strings.TrimSpace(n.text)
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				if len(bytes.TrimSpace(t)) > 0 {
					return nil, refuse("body", "has text outside the root element")
				}
				continue
			}
			n := stack[len(stack)-1]
			n.text += string(t)
		}
	}
	if root == nil {
		return nil, refuse("body", "has no root element")
	}
	simplifyPaths(root)
	return root, nil
}

// simplifyPaths drops the [1] of elements that occur once among their siblings, so that paths
// read as the scheme's (CdtTrfTxInf[2]/Cdtr/Nm, not CdtTrfTxInf[2]/Cdtr[1]/Nm[1]).
func simplifyPaths(n *node) {
	count := n.seen
	n.seen = nil
	for _, c := range n.children {
		base := n.path + "/" + c.name
		if count[c.name] == 1 {
			c.path = base
		} else {
			c.path = base + c.path[strings.LastIndex(c.path, "["):]
		}
		simplifyPaths(c)
	}
}

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }

func firstWord(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexAny(s, " \t\r\n["); i > 0 {
		s = s[:i]
	}
	if len(s) > 16 {
		s = s[:16]
	}
	return s
}
