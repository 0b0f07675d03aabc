package rules

import "sync"

// DefaultCacheSize bounds a Cache: more distinct expressions than this empties it.
const DefaultCacheSize = 10_000

// Cache keeps compiled Programs by expression text, so a screening compiles a tenant rule once
// and never again (the environment is the same for every tenant, so the text is the key).
// It is safe for concurrent use.
type Cache struct {
	compiler *Compiler
	max      int

	mu       sync.RWMutex
	programs map[string]Program
}

// NewCache returns a Cache over c holding at most max programs (DefaultCacheSize when max <= 0).
func NewCache(c *Compiler, max int) *Cache {
	if c == nil {
		panic("rules.NewCache: nil compiler")
	}
	if max <= 0 {
		max = DefaultCacheSize
	}
	return &Cache{compiler: c, max: max, programs: make(map[string]Program)}
}

// Program returns the compiled program for expr, compiling it on first use. A compile error
// is not cached and is the VALIDATION_ERROR of Compiler.Compile.
func (c *Cache) Program(expr string) (Program, error) {
	c.mu.RLock()
	p, ok := c.programs[expr]
	c.mu.RUnlock()
	if ok {
		return p, nil
	}
	p, err := c.compiler.Compile(expr)
	if err != nil {
		return Program{}, err
	}
	c.mu.Lock()
	// A full cache is emptied rather than tracked per entry: rules change rarely and a
	// recompile costs well under a millisecond, so a simple bound is enough.
	if len(c.programs) >= c.max {
		clear(c.programs)
	}
	c.programs[expr] = p
	c.mu.Unlock()
	return p, nil
}

// Len returns the number of cached programs.
func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.programs)
}
