package idhttp

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// lookup walks a dotted path ("data.firstName", "entity.directors.0.name") through decoded JSON.
func lookup(root any, path string) (any, bool) {
	cur := root
	for _, part := range strings.Split(path, ".") {
		switch node := cur.(type) {
		case map[string]any:
			v, ok := node[part]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(node) {
				return nil, false
			}
			cur = node[i]
		default:
			return nil, false
		}
	}
	return cur, cur != nil
}

// remove deletes the value at path, if any (used to keep the registry photo out of raw).
func remove(root any, path string) {
	parts := strings.Split(path, ".")
	parent, ok := root, true
	if len(parts) > 1 {
		parent, ok = lookup(root, strings.Join(parts[:len(parts)-1], "."))
	}
	if m, isMap := parent.(map[string]any); ok && isMap {
		delete(m, parts[len(parts)-1])
	}
}

func asString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

// asBool accepts JSON booleans and the strings and numbers vendors use for them.
func asBool(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case string:
		switch strings.ToLower(x) {
		case "true", "yes", "y", "1", "match", "matched", "found", "success", "verified":
			return true, true
		case "false", "no", "n", "0", "no_match", "not_found", "failed":
			return false, true
		}
	case json.Number:
		f, err := x.Float64()
		return f != 0, err == nil
	}
	return false, false
}

// asConfidence reads a score in 0..1; a value above 1 is taken as a percentage.
func asConfidence(v any) (float64, bool) {
	var f float64
	switch x := v.(type) {
	case json.Number:
		var err error
		if f, err = x.Float64(); err != nil {
			return 0, false
		}
	case string:
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSuffix(x, "%"), 64); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	// ParseFloat reads "NaN" and "Inf" without error; neither is a score, and a NaN cannot be
	// stored or answered as JSON.
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	if f > 1 {
		f /= 100
	}
	return max(0, min(1, f)), true
}
