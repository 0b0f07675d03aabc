package reports

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/complyd/complyd/internal/apperr"
)

// Validation against the goAML XSD (docs/guide/reports.md "Validation"). The structure of a report
// (element order, required elements, types, lengths) is goAML's and is checked by an XSD 1.0
// validator against the FIU's schema with its enumerations stripped; the codes are the FIU's
// and are checked against the tenant's code list (codelist.go). Both name each problem by the
// element's path, report/transaction[0]/t_to/to_country.

// PublicSchema is the public goAML 5.0.1 report schema (its provenance: docs/guide/reports.md "Which schema"), used
// when the deployment configures no schema of its FIU.
//
//go:embed goaml/goAMLSchema-5.0.1.xsd
var PublicSchema []byte

// PublicSchemaName names PublicSchema in answers and docs.
const PublicSchemaName = "goAML 5.0.1 (public)"

// xsdNamespace is the namespace of XML Schema's own elements.
const xsdNamespace = "http://www.w3.org/2001/XMLSchema"

// StructureOnly returns xsd with its enumeration facets removed: a restriction that listed codes
// then takes any value of its base type (with its other facets), so the schema checks structure
// and the code list checks codes. The facets are found by namespace, whatever prefix the FIU's
// schema binds to XML Schema (xs:, xsd: or none); every other byte is kept as it was. A schema
// that is not well-formed is returned as it is, for the validator to refuse.
func StructureOnly(xsd []byte) []byte {
	d := xml.NewDecoder(bytes.NewReader(xsd))
	var cuts [][2]int64 // byte ranges of the enumeration elements, outermost only
	depth := 0          // > 0 inside an enumeration element
	var start int64
	for {
		before := d.InputOffset()
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth > 0 {
				depth++
			} else if t.Name.Local == "enumeration" && t.Name.Space == xsdNamespace {
				depth, start = 1, before
			}
		case xml.EndElement:
			if depth > 0 {
				if depth--; depth == 0 {
					cuts = append(cuts, [2]int64{start, d.InputOffset()})
				}
			}
		}
	}
	if len(cuts) == 0 {
		return bytes.Clone(xsd)
	}
	out := make([]byte, 0, len(xsd))
	var at int64
	for _, c := range cuts {
		out = append(out, xsd[at:c[0]]...)
		at = c[1]
	}
	return append(out, xsd[at:]...)
}

// SchemaProblem is one error of the validator: the line of the document it is on, the element
// it names and the validator's message.
type SchemaProblem struct {
	Line    int
	Element string
	Message string
}

// SchemaValidator validates a document against a structure-only goAML schema (an adapter: the
// validator runs outside any transaction). schema names one the deployment configured; ""
// is the deployment's default. An error means the validation could not run.
type SchemaValidator interface {
	Validate(ctx context.Context, schema string, doc []byte) ([]SchemaProblem, error)
	// Has reports whether schema is one of the deployment's.
	Has(schema string) bool
}

// element is a parsed element with its path and line.
type element struct {
	name, path, text string
	line             int
	children         []*element
}

// repeated are the elements that may occur more than once in their parent: their paths carry
// an index (report/transaction[0]).
var repeated = map[string]bool{"transaction": true, "phone": true, "indicator": true, "report_party": true, "email": true}

// parseElements parses doc into its element tree with each element's path and line.
func parseElements(doc []byte) (*element, error) {
	d := xml.NewDecoder(bytes.NewReader(doc))
	var stack []*element
	var root *element
	counts := []map[string]int{{}}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			line, _ := d.InputPos()
			n := &element{name: t.Name.Local, line: line}
			c := counts[len(counts)-1]
			seg := n.name
			if repeated[n.name] {
				seg = fmt.Sprintf("%s[%d]", n.name, c[n.name])
			}
			c[n.name]++
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				n.path = p.path + "/" + seg
				p.children = append(p.children, n)
			} else if root == nil {
				root, n.path = n, seg
			} else {
				return nil, fmt.Errorf("more than one root element")
			}
			stack = append(stack, n)
			counts = append(counts, map[string]int{})
		case xml.EndElement:
			stack, counts = stack[:len(stack)-1], counts[:len(counts)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(t)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("no root element")
	}
	return root, nil
}

func (e *element) walk(fn func(*element)) {
	fn(e)
	for _, c := range e.children {
		c.walk(fn)
	}
}

// CheckCodes checks every coded value of doc against codes and returns each unknown value with
// its element path; a document that does not parse is one problem at "report".
func CheckCodes(doc []byte, codes CodeList) []apperr.FieldError {
	root, err := parseElements(doc)
	if err != nil {
		return []apperr.FieldError{{Field: "report", Message: "not well-formed XML: " + err.Error()}}
	}
	var errs []apperr.FieldError
	root.walk(func(e *element) {
		list, ok := codeElements[e.name]
		if !ok || len(e.children) > 0 {
			return
		}
		if msg := codes.Check(list, strings.TrimSpace(e.text)); msg != "" {
			errs = append(errs, apperr.FieldError{Field: e.path, Message: msg})
		}
	})
	return errs
}

// schemaFields maps a validator's problems to element paths: a problem is about the element
// that starts on its line with its name (the encoder writes one element a line), else the
// first element of the line, else the whole report.
func schemaFields(doc []byte, problems []SchemaProblem) []apperr.FieldError {
	root, err := parseElements(doc)
	byLine := map[int][]*element{}
	if err == nil {
		root.walk(func(e *element) { byLine[e.line] = append(byLine[e.line], e) })
	}
	out := make([]apperr.FieldError, 0, len(problems))
	for _, p := range problems {
		path := "report"
		for i, e := range byLine[p.Line] {
			if i == 0 || e.name == p.Element {
				path = e.path
			}
		}
		out = append(out, apperr.FieldError{Field: path, Message: p.Message})
	}
	return out
}
