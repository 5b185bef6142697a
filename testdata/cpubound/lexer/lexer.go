// Package lexer splits arithmetic expressions into tokens: numbers (decimal,
// hexadecimal, with fractions, exponents and _ separators), identifiers,
// quoted strings with escapes, operators, brackets and commas. A # starts a
// comment that runs to the end of the line.
package lexer

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the kind of a token.
type Kind uint8

// Token kinds.
const (
	EOF Kind = iota
	Number
	Ident
	String
	Operator
	Bracket
	Comma
	Illegal
)

func (k Kind) String() string {
	switch k {
	case EOF:
		return "end of input"
	case Number:
		return "number"
	case Ident:
		return "identifier"
	case String:
		return "string"
	case Operator:
		return "operator"
	case Bracket:
		return "bracket"
	case Comma:
		return "comma"
	case Illegal:
		return "illegal token"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Token is one token of the input. For an Illegal token, Text is the
// problem.
type Token struct {
	Kind Kind
	Text string
	// Pos is the byte offset of the token in the input.
	Pos int
}

// Is reports whether t has the given kind and, unless text is empty, the
// given text.
func (t Token) Is(kind Kind, text string) bool {
	if t.Kind != kind {
		return false
	}
	return text == "" || t.Text == text
}

// Float returns the value of a Number token. Errors do not include the
// token's position.
func (t Token) Float() (float64, error) {
	if t.Kind != Number {
		return 0, fmt.Errorf("%s is not a number", t.Kind)
	}
	s := t.Text
	if strings.IndexByte(s, '_') >= 0 {
		s = strings.ReplaceAll(s, "_", "")
	}
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		n, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil {
			return 0, fmt.Errorf("bad hexadecimal number %s", t.Text)
		}
		return float64(n), nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("bad number %s", t.Text)
	}
	return f, nil
}

// Unquote returns the value of a String token, with escapes resolved.
func (t Token) Unquote() (string, error) {
	if t.Kind != String || len(t.Text) < 2 {
		return "", fmt.Errorf("%s is not a string", t.Kind)
	}
	body := t.Text[1 : len(t.Text)-1]
	if strings.IndexByte(body, '\\') < 0 {
		return body, nil
	}
	var sb strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 == len(body) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch body[i] {
		case 'n':
			sb.WriteByte('\n')
		case 't':
			sb.WriteByte('\t')
		case '\\', '"', '\'':
			sb.WriteByte(body[i])
		default:
			return "", fmt.Errorf("unknown escape \\%c", body[i])
		}
	}
	return sb.String(), nil
}

// Lexer produces the tokens of one input.
type Lexer struct {
	src string
	pos int
}

// New returns a lexer for src.
func New(src string) *Lexer { return &Lexer{src: src} }

// Reset makes the lexer start over on a new input.
func (l *Lexer) Reset(src string) {
	l.src = src
	l.pos = 0
}

// Next returns the next token; at the end of the input it returns EOF
// tokens forever.
func (l *Lexer) Next() Token {
	l.skipSpace()
	if l.pos >= len(l.src) {
		return Token{Kind: EOF, Pos: l.pos}
	}
	start := l.pos
	c := l.src[l.pos]
	switch {
	case isDigit(c) || (c == '.' && l.pos+1 < len(l.src) && isDigit(l.src[l.pos+1])):
		return l.number(start)
	case isLetter(c):
		for l.pos < len(l.src) && (isLetter(l.src[l.pos]) || isDigit(l.src[l.pos])) {
			l.pos++
		}
		return Token{Kind: Ident, Text: l.src[start:l.pos], Pos: start}
	case c == '"' || c == '\'':
		return l.str(start, c)
	case c == '(' || c == ')':
		l.pos++
		return Token{Kind: Bracket, Text: l.src[start:l.pos], Pos: start}
	case c == ',':
		l.pos++
		return Token{Kind: Comma, Text: ",", Pos: start}
	}
	return l.operator(start)
}

func (l *Lexer) skipSpace() {
	for l.pos < len(l.src) {
		switch c := l.src[l.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			l.pos++
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		default:
			return
		}
	}
}

func (l *Lexer) number(start int) Token {
	if l.src[l.pos] == '0' && l.pos+1 < len(l.src) && (l.src[l.pos+1] == 'x' || l.src[l.pos+1] == 'X') {
		l.pos += 2
		digits := 0
		for l.pos < len(l.src) && (isHex(l.src[l.pos]) || l.src[l.pos] == '_') {
			if l.src[l.pos] != '_' {
				digits++
			}
			l.pos++
		}
		if digits == 0 {
			return Token{Kind: Illegal, Text: "hexadecimal number without digits", Pos: start}
		}
		return Token{Kind: Number, Text: l.src[start:l.pos], Pos: start}
	}
	l.digits()
	if l.pos < len(l.src) && l.src[l.pos] == '.' {
		l.pos++
		l.digits()
	}
	if l.pos < len(l.src) && (l.src[l.pos] == 'e' || l.src[l.pos] == 'E') {
		l.pos++
		if l.pos < len(l.src) && (l.src[l.pos] == '+' || l.src[l.pos] == '-') {
			l.pos++
		}
		if l.digits() == 0 {
			return Token{Kind: Illegal, Text: "exponent without digits", Pos: start}
		}
	}
	if l.pos < len(l.src) && isLetter(l.src[l.pos]) {
		return Token{Kind: Illegal, Text: fmt.Sprintf("letter %q after number", l.src[l.pos]), Pos: start}
	}
	return Token{Kind: Number, Text: l.src[start:l.pos], Pos: start}
}

func (l *Lexer) digits() int {
	n := 0
	for l.pos < len(l.src) && (isDigit(l.src[l.pos]) || (n > 0 && l.src[l.pos] == '_')) {
		l.pos++
		n++
	}
	return n
}

func (l *Lexer) str(start int, quote byte) Token {
	l.pos++
	for l.pos < len(l.src) {
		switch l.src[l.pos] {
		case '\\':
			l.pos += 2
			continue
		case '\n':
			return Token{Kind: Illegal, Text: "newline in string", Pos: start}
		case quote:
			l.pos++
			return Token{Kind: String, Text: l.src[start:l.pos], Pos: start}
		}
		l.pos++
	}
	l.pos = len(l.src)
	return Token{Kind: Illegal, Text: "unterminated string", Pos: start}
}

// twoChar are the operators of two characters.
var twoChar = [...]string{"==", "!=", "<=", ">=", "&&", "||", "**"}

func (l *Lexer) operator(start int) Token {
	if l.pos+1 < len(l.src) {
		pair := l.src[l.pos : l.pos+2]
		for _, op := range twoChar {
			if pair == op {
				l.pos += 2
				return Token{Kind: Operator, Text: op, Pos: start}
			}
		}
	}
	switch c := l.src[l.pos]; c {
	case '+', '-', '*', '/', '%', '<', '>', '!', '?', ':':
		l.pos++
		return Token{Kind: Operator, Text: l.src[start:l.pos], Pos: start}
	}
	r, size := utf8.DecodeRuneInString(l.src[l.pos:])
	l.pos += size
	return Token{Kind: Illegal, Text: fmt.Sprintf("unexpected character %q", r), Pos: start}
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F') }
func isLetter(c byte) bool { return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
