// Package calc parses and evaluates arithmetic expressions over float64
// variables: + - * / % ** with the usual precedence, comparisons and the
// logical operators (true is 1, false is 0; && and || short-circuit), the
// conditional c ? a : b, and calls of built-in functions (abs, min, max,
// sqrt, floor, clamp, len).
package calc

import (
	"fmt"

	"example.com/cpubound/lexer"
)

// MaxDepth bounds the nesting of expressions.
const MaxDepth = 200

// SyntaxError is an error in the text of an expression.
type SyntaxError struct {
	Pos int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d: %s", e.Pos, e.Msg) }

// Expr is a parsed expression.
type Expr struct {
	root node
	src  string
}

// String returns the source of the expression.
func (e *Expr) String() string { return e.src }

// Parser parses expressions; its zero value is ready to use and it can be
// reused for many expressions.
type Parser struct {
	lex   lexer.Lexer
	tok   lexer.Token
	err   *SyntaxError
	depth int
}

// Parse parses one expression.
func Parse(src string) (*Expr, error) {
	var p Parser
	return p.Parse(src)
}

// Parse parses one expression with p.
func (p *Parser) Parse(src string) (*Expr, error) {
	p.lex.Reset(src)
	p.err = nil
	p.depth = 0
	p.next()
	n := p.conditional()
	if p.err == nil && !p.tok.Is(lexer.EOF, "") {
		p.failf("unexpected %s %q after expression", p.tok.Kind, p.tok.Text)
	}
	if p.err != nil {
		return nil, p.err
	}
	return &Expr{root: n, src: src}, nil
}

func (p *Parser) next() {
	p.tok = p.lex.Next()
	if p.tok.Kind == lexer.Illegal {
		p.failf("%s", p.tok.Text)
	}
}

func (p *Parser) failf(format string, args ...any) {
	p.failAt(p.tok.Pos, format, args...)
}

func (p *Parser) failAt(pos int, format string, args ...any) {
	if p.err == nil {
		p.err = &SyntaxError{Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
	// Skip to the end: the first error is the one reported.
	p.tok = lexer.Token{Kind: lexer.EOF, Pos: p.tok.Pos}
}

func (p *Parser) expect(kind lexer.Kind, text string) {
	if !p.tok.Is(kind, text) {
		if p.tok.Kind == lexer.EOF {
			p.failf("expected %q, found end of input", text)
		} else {
			p.failf("expected %q, found %q", text, p.tok.Text)
		}
		return
	}
	p.next()
}

// conditional parses c ? a : b, which is right-associative and binds
// loosest.
func (p *Parser) conditional() node {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > MaxDepth {
		p.failf("expression nested too deeply")
		return num(0)
	}
	c := p.binary(1)
	if !p.tok.Is(lexer.Operator, "?") {
		return c
	}
	p.next()
	a := p.conditional()
	p.expect(lexer.Operator, ":")
	b := p.conditional()
	return &cond{c: c, a: a, b: b}
}

// precedence returns the binding power of a binary operator, 0 for a token
// that is not one.
func precedence(t lexer.Token) int {
	if t.Kind != lexer.Operator {
		return 0
	}
	switch t.Text {
	case "||":
		return 1
	case "&&":
		return 2
	case "==", "!=":
		return 3
	case "<", "<=", ">", ">=":
		return 4
	case "+", "-":
		return 5
	case "*", "/", "%":
		return 6
	case "**":
		return 7
	}
	return 0
}

// binary parses binary operators of at least precedence minPrec by
// precedence climbing; ** is right-associative.
func (p *Parser) binary(minPrec int) node {
	x := p.unary()
	for {
		prec := precedence(p.tok)
		if prec < minPrec || p.err != nil {
			return x
		}
		op := p.tok.Text
		p.next()
		next := prec + 1
		if op == "**" {
			next = prec
		}
		y := p.binary(next)
		x = &binary{op: op, x: x, y: y}
	}
}

func (p *Parser) unary() node {
	if p.tok.Is(lexer.Operator, "-") || p.tok.Is(lexer.Operator, "+") || p.tok.Is(lexer.Operator, "!") {
		op := p.tok.Text
		p.next()
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > MaxDepth {
			p.failf("expression nested too deeply")
			return num(0)
		}
		x := p.unary()
		if op == "+" {
			return x
		}
		if n, ok := x.(num); ok && op == "-" {
			return -n // fold negative literals
		}
		return &unary{op: op, x: x}
	}
	return p.primary()
}

func (p *Parser) primary() node {
	t := p.tok
	switch t.Kind {
	case lexer.Number:
		v, err := t.Float()
		if err != nil {
			p.failf("%v", err)
			return num(0)
		}
		p.next()
		return num(v)
	case lexer.String:
		s, err := t.Unquote()
		if err != nil {
			p.failf("%v", err)
			return num(0)
		}
		p.next()
		return str(s)
	case lexer.Ident:
		p.next()
		if p.tok.Is(lexer.Bracket, "(") {
			return p.call(t)
		}
		return variable(t.Text)
	case lexer.Bracket:
		if t.Text == "(" {
			p.next()
			x := p.conditional()
			p.expect(lexer.Bracket, ")")
			return x
		}
	case lexer.EOF:
		p.failf("unexpected end of input")
		return num(0)
	}
	p.failf("unexpected %s %q", t.Kind, t.Text)
	return num(0)
}

func (p *Parser) call(name lexer.Token) node {
	fn, ok := builtins[name.Text]
	if !ok {
		p.failAt(name.Pos, "unknown function %s", name.Text)
		return num(0)
	}
	p.next() // (
	c := &call{name: name.Text, fn: fn}
	if !p.tok.Is(lexer.Bracket, ")") {
		for {
			c.args = append(c.args, p.conditional())
			if !p.tok.Is(lexer.Comma, "") {
				break
			}
			p.next()
		}
	}
	p.expect(lexer.Bracket, ")")
	if len(c.args) < fn.min || (fn.max >= 0 && len(c.args) > fn.max) {
		p.failAt(name.Pos, "%s: wrong number of arguments (%d)", name.Text, len(c.args))
	}
	return c
}
