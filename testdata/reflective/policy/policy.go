// Package policy allows level names by rules, in the shape of HTML
// sanitizer policies: a Policy hands out an unexported rule builder whose
// methods chain and return the builder, and takes a callback of an
// unexported named function type. Tests outside the package can call
// both (Go infers the builder's type and assigns a function literal to
// the callback's), though they cannot name either type.
package policy

import "example.com/reflective/level"

// Policy allows the names its rules allow.
type Policy struct {
	rules   []rule
	rewrite rewriter
}

type rule struct {
	name string
	min  level.Level
}

// ruleBuilder is what Allow hands out; its methods chain.
type ruleBuilder struct {
	p *Policy
	r rule
}

// rewriter rewrites a name before the policy looks at it.
type rewriter func(string) string

// New returns a policy that allows nothing.
func New() *Policy { return &Policy{} }

// Allow starts a rule that allows name.
func (p *Policy) Allow(name string) *ruleBuilder {
	return &ruleBuilder{p: p, r: rule{name: name}}
}

// From makes the rule hold only from the level named min on; an empty or
// unknown name leaves it holding at every level.
func (b *ruleBuilder) From(min string) *ruleBuilder {
	if min == "" {
		return b
	}
	if l, ok := level.Parse(min); ok {
		b.r.min = l
	}
	return b
}

// Add adds the rule to its policy and returns the policy.
func (b *ruleBuilder) Add() *Policy {
	b.p.rules = append(b.p.rules, b.r)
	return b.p
}

// Via adds the rule to its policy, which from then on passes every name
// through fn first, and returns the policy.
func (b *ruleBuilder) Via(fn rewriter) *Policy {
	b.p.rewrite = fn
	return b.Add()
}

// Rewrite makes the policy pass every name through fn first.
func (p *Policy) Rewrite(fn rewriter) { p.rewrite = fn }

// Allows reports whether a rule allows name, as a level name, at its own
// level. With a rewrite function, the rewritten name is what counts.
func (p *Policy) Allows(name string) bool {
	var l level.Level
	var ok bool
	if p.rewrite != nil {
		name = p.rewrite(name)
		l, ok = level.Parse(name)
	} else {
		l, ok = level.Parse(name)
	}
	if !ok {
		return false
	}
	for _, r := range p.rules {
		if r.name == name && l >= r.min {
			return true
		}
	}
	return false
}
