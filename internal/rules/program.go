package rules

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/interpreter"

	"github.com/complyd/complyd/internal/apperr"
)

// DefaultCostLimit bounds one evaluation in CEL cost units. Every expression over the declared
// scalars costs a few dozen units; the limit only stops pathological comprehensions and regexes.
const DefaultCostLimit = 100_000

// MaxExpressionLength is the longest expression accepted, in bytes.
const MaxExpressionLength = 4096

// Compiler type-checks rule expressions against the screening CEL environment.
// It is immutable and safe for concurrent use.
type Compiler struct {
	env       *cel.Env
	costLimit uint64
}

// NewCompiler returns a Compiler with DefaultCostLimit.
func NewCompiler() (*Compiler, error) {
	env, err := newEnv()
	if err != nil {
		return nil, fmt.Errorf("build cel env: %w", err)
	}
	return &Compiler{env: env, costLimit: DefaultCostLimit}, nil
}

// defaultCompiler is built once; it is immutable afterwards.
var defaultCompiler = sync.OnceValues(NewCompiler)

// Compile type-checks expr with the default Compiler. See Compiler.Compile.
func Compile(expr string) (Program, error) {
	c, err := defaultCompiler()
	if err != nil {
		return Program{}, err
	}
	return c.Compile(expr)
}

// Compile parses and type-checks expr, which must be a bool expression over the declared
// variables, and plans it once. A bad expression returns VALIDATION_ERROR naming "expression"
// with the compiler's message (docs/design/design-choices.md §10).
func (c *Compiler) Compile(expr string) (Program, error) {
	switch {
	case strings.TrimSpace(expr) == "":
		return Program{}, invalid("expression", "is required")
	case len(expr) > MaxExpressionLength:
		return Program{}, invalid("expression", fmt.Sprintf("must be at most %d bytes", MaxExpressionLength))
	}
	ast, iss := c.env.Compile(expr)
	if iss.Err() != nil {
		return Program{}, invalid("expression", iss.Err().Error())
	}
	if !ast.OutputType().IsExactType(cel.BoolType) {
		return Program{}, invalid("expression", fmt.Sprintf("must evaluate to bool, not %s", ast.OutputType()))
	}
	prg, err := c.env.Program(ast,
		cel.CostLimit(c.costLimit),
		cel.InterruptCheckFrequency(100),
		cel.EvalOptions(cel.OptOptimize),
	)
	if err != nil {
		return Program{}, invalid("expression", err.Error())
	}
	return Program{expr: expr, prg: prg}, nil
}

// Program is a compiled rule expression. The zero Program is not usable.
type Program struct {
	expr string
	prg  cel.Program
}

// Expression returns the source the program was compiled from.
func (p Program) Expression() string { return p.expr }

// Eval runs the program against in. It stops at the cost limit or when ctx is done and
// returns that as an error, as it does for runtime errors (division by zero, overflow).
func (p Program) Eval(ctx context.Context, in *Input) (bool, error) {
	if p.prg == nil {
		return false, fmt.Errorf("eval rule: program not compiled")
	}
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("eval rule: %w", err)
	}
	out, _, err := p.prg.ContextEval(ctx, activation{in: in})
	if err != nil {
		return false, fmt.Errorf("eval rule: %w", err)
	}
	b, ok := out.Value().(bool)
	if !ok {
		return false, fmt.Errorf("eval rule: result is %s, not bool", out.Type())
	}
	return b, nil
}

// activation resolves the qualified variable names straight from an Input.
type activation struct{ in *Input }

// ResolveName implements interpreter.Activation.
func (a activation) ResolveName(name string) (any, bool) {
	get, ok := variableIndex[name]
	if !ok {
		return nil, false
	}
	return get(a.in), true
}

// Parent implements interpreter.Activation.
func (a activation) Parent() interpreter.Activation { return nil }

func invalid(field, msg string) *apperr.Error { return apperr.Invalid(field, msg) }
