package mutate

import (
	"fmt"
	"go/ast"
	"sort"
	"strings"
)

// Operator names a mutation operator.
type Operator string

// Group is a family of operators that --operators selects by its name.
type Group string

// The groups. The interface operators are Delamaro's and mutate the
// interface between R and E; the conventional ones carry the names of
// PIT's mutators, so that scores compare with other tools, and mutate all
// of R and E.
const (
	InterfaceGroup    Group = "interface"
	ConventionalGroup Group = "conventional"
)

// groups lists the groups in the order of help texts and errors.
var groups = []Group{InterfaceGroup, ConventionalGroup}

// OperatorInfo describes a registered operator.
type OperatorInfo struct {
	Name Operator
	// Doc says in one sentence what the operator's mutants change.
	Doc   string
	Group Group
}

// operatorDef is a registered operator: what it is, where it goes in the
// order of mutant IDs, and how its mutants are found.
type operatorDef struct {
	OperatorInfo
	// order places the operator's mutants among those of other operators
	// at the same source position, and its row in reports: lower first.
	order int
	// pass, if set, finds the operator's mutants in the pair as a whole.
	pass func(g *generator)
	// node, if set, finds them at the nodes of the function bodies of R
	// and E, in one walk that all selected operators share. Operators
	// whose mutants share a site share the visitor (the same pointer), and
	// the walk calls it once per node.
	node *nodeVisitor
}

// A nodeVisitor finds mutants at one node of a function body of file f.
type nodeVisitor struct {
	visit func(g *generator, f *srcFile, n ast.Node)
}

// visitorOf makes the visitor of one type of node.
func visitorOf[N ast.Node](visit func(g *generator, f *srcFile, n N)) *nodeVisitor {
	return &nodeVisitor{visit: func(g *generator, f *srcFile, n ast.Node) {
		if x, ok := n.(N); ok {
			visit(g, f, x)
		}
	}}
}

// registry holds the operators, by order.
var registry []*operatorDef

// register adds an operator; each operator's file registers it from its
// init function.
func register(d operatorDef) {
	if d.Name == "" || d.Doc == "" || (d.pass == nil) == (d.node == nil) {
		panic(fmt.Sprintf("mutate: operator %q needs a name, a doc and one of pass and node", d.Name))
	}
	for _, o := range registry {
		if strings.EqualFold(string(o.Name), string(d.Name)) || o.order == d.order {
			panic(fmt.Sprintf("mutate: operators %s and %s share a name or an order", o.Name, d.Name))
		}
	}
	registry = append(registry, &d)
	sort.Slice(registry, func(i, j int) bool { return registry[i].order < registry[j].order })
}

// Groups lists the groups, in the order of help texts.
func Groups() []Group { return append([]Group(nil), groups...) }

// Operators describes every operator, in the order of mutant IDs.
func Operators() []OperatorInfo {
	out := make([]OperatorInfo, len(registry))
	for i, d := range registry {
		out[i] = d.OperatorInfo
	}
	return out
}

// allOperators lists every operator in ID order.
func allOperators() []Operator { return operatorsOf(func(*operatorDef) bool { return true }) }

// groupOperators lists the operators of a group in ID order.
func groupOperators(g Group) []Operator {
	return operatorsOf(func(d *operatorDef) bool { return d.Group == g })
}

func operatorsOf(keep func(*operatorDef) bool) []Operator {
	var out []Operator
	for _, d := range registry {
		if keep(d) {
			out = append(out, d.Name)
		}
	}
	return out
}

// rank orders operators for IDs and reports.
func (o Operator) rank() int {
	for i, d := range registry {
		if d.Name == o {
			return i
		}
	}
	return len(registry)
}

// ParseOperators turns operator specifications into a sorted list of
// operators. Each specification is a comma-separated list of operator
// names (case-insensitive) and the groups "interface" (RetStaRep,
// FunCalDel), "conventional" and "all". No specification means interface.
func ParseOperators(specs []string) ([]Operator, error) {
	set := map[Operator]bool{}
	add := func(ops []Operator) {
		for _, o := range ops {
			set[o] = true
		}
	}
	any := false
	for _, spec := range specs {
		for _, name := range strings.Split(spec, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			any = true
			if sel, ok := selectorOps(name); ok {
				add(sel)
				continue
			}
			return nil, fmt.Errorf("unknown operator %q (known: %s)", name, strings.Join(selectorNames(), ", "))
		}
	}
	if !any {
		add(groupOperators(InterfaceGroup))
	}
	out := make([]Operator, 0, len(set))
	for o := range set {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rank() < out[j].rank() })
	return out, nil
}

// selectorOps returns the operators a name selects: a group, "all" or an
// operator, ignoring case.
func selectorOps(name string) ([]Operator, bool) {
	for _, g := range groups {
		if strings.EqualFold(name, string(g)) {
			return groupOperators(g), true
		}
	}
	if strings.EqualFold(name, "all") {
		return allOperators(), true
	}
	for _, d := range registry {
		if strings.EqualFold(name, string(d.Name)) {
			return []Operator{d.Name}, true
		}
	}
	return nil, false
}

// selectorNames lists what --operators accepts: the groups, "all" and
// the operators.
func selectorNames() []string {
	var out []string
	for _, g := range groups {
		out = append(out, string(g))
	}
	out = append(out, "all")
	for _, d := range registry {
		out = append(out, string(d.Name))
	}
	return out
}
