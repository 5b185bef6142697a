package main

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// defaultAlgorithms are the variants the benchmark compares unless
// -algorithms or -variants says otherwise: MOSA against random search.
const defaultAlgorithms = "mosa,random"

// A variant is one configuration of cling gen that the benchmark runs on
// every pair and seed: a name for the report, the results file and the
// saved files, and the cling gen flags that make it.
type variant struct {
	Name string
	// Flags are the cling gen flags of the variant, --algorithm=A first
	// when the specification did not set --algorithm.
	Flags []string
	// Algorithm is the search algorithm the flags select.
	Algorithm string
	// given says that the specification wrote FLAGS (NAME=FLAGS): -report
	// then selects the stored runs of exactly these flags, and by the
	// name alone otherwise.
	given bool
}

// flagString is the variant's flags as the results file keys them: the
// flags separated by single spaces.
func (v variant) flagString() string { return strings.Join(v.Flags, " ") }

// pure says that the variant is an algorithm with cling gen's defaults
// for everything else (what -algorithms makes).
func (v variant) pure() bool { return v.flagString() == "--algorithm="+v.Algorithm }

// variantName is what a variant name may be made of: it names files.
var variantName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9+._-]*$`)

// harnessFlags are the cling gen flags the benchmark sets itself on every
// run; a variant may not set them.
var harnessFlags = map[string]bool{"caller": true, "r": true, "callee": true, "e": true, "seed": true, "budget": true, "max-evals": true,
	"workers": true, "j": true, "stats": true, "json": true}

// parseVariants parses -variants: NAME[=FLAGS] separated by commas, or by
// semicolons when the list holds one (for FLAGS with commas in them, such
// as --criteria cbc,line). FLAGS are cling gen flags separated by spaces,
// as --flag=value or --flag value; unless they set --algorithm, the
// variant runs the algorithm its name starts with, up to a '+':
// "mosa+hmx=--crossover=hmx" is --algorithm=mosa --crossover=hmx.
func parseVariants(s string) ([]variant, error) {
	sep := ","
	if strings.Contains(s, ";") {
		sep = ";"
	}
	var out []variant
	for _, spec := range strings.Split(s, sep) {
		if spec = strings.TrimSpace(spec); spec == "" {
			continue
		}
		v, err := parseVariant(spec)
		if err != nil {
			return nil, fmt.Errorf("-variants: %w", err)
		}
		out = append(out, v)
	}
	return out, nil
}

// parseVariant parses one NAME[=FLAGS].
func parseVariant(spec string) (variant, error) {
	name, flags, given := strings.Cut(spec, "=")
	name = strings.TrimSpace(name)
	if !variantName.MatchString(name) {
		return variant{}, fmt.Errorf("%q is not a variant name (letters, digits, + . _ -)", name)
	}
	v := variant{Name: name, Flags: strings.Fields(flags), given: given}
	if given && len(v.Flags) == 0 {
		return variant{}, fmt.Errorf("%s: no flags after '='", name)
	}
	takesValue := false // the previous token was a flag without =value
	for i, f := range v.Flags {
		if !strings.HasPrefix(f, "-") {
			if !takesValue {
				return variant{}, fmt.Errorf("%s: %q is not a flag", name, f)
			}
			if flagName(v.Flags[i-1]) == "algorithm" {
				if err := v.setAlgorithm(f); err != nil {
					return variant{}, err
				}
			}
			takesValue = false
			continue
		}
		fn, value, hasValue := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if fn == "" {
			return variant{}, fmt.Errorf("%s: %q is not a flag", name, f)
		}
		if harnessFlags[fn] {
			return variant{}, fmt.Errorf("%s: the benchmark sets %s itself", name, f)
		}
		takesValue = !hasValue
		if fn == "algorithm" && hasValue {
			if err := v.setAlgorithm(value); err != nil {
				return variant{}, err
			}
		}
	}
	if n := len(v.Flags); n > 0 && takesValue && flagName(v.Flags[n-1]) == "algorithm" {
		return variant{}, fmt.Errorf("%s: --algorithm without a value", name)
	}
	if v.Algorithm == "" {
		alg, _, _ := strings.Cut(name, "+")
		v.Algorithm = alg
		v.Flags = append([]string{"--algorithm=" + alg}, v.Flags...)
	}
	return v, nil
}

// flagName is the name of a flag token: "--algorithm=x" is "algorithm".
func flagName(token string) string {
	fn, _, _ := strings.Cut(strings.TrimLeft(token, "-"), "=")
	return fn
}

// setAlgorithm records the value of the variant's --algorithm flag.
func (v *variant) setAlgorithm(alg string) error {
	if v.Algorithm != "" {
		return fmt.Errorf("%s: --algorithm twice", v.Name)
	}
	if alg == "" {
		return fmt.Errorf("%s: --algorithm without a value", v.Name)
	}
	v.Algorithm = alg
	return nil
}

// algorithmVariants parses -algorithms: comma-separated algorithm names,
// each a variant of that name that runs it with cling gen's defaults.
func algorithmVariants(s string) ([]variant, error) {
	var out []variant
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		if !variantName.MatchString(a) || strings.Contains(a, "+") {
			return nil, fmt.Errorf("-algorithms: %q is not an algorithm name (for other configurations use -variants)", a)
		}
		out = append(out, variant{Name: a, Flags: []string{"--algorithm=" + a}, Algorithm: a})
	}
	return out, nil
}

// benchVariants makes the variants of a benchmark from -algorithms and
// -variants (those of -algorithms first), and checks that no name is
// used twice.
func benchVariants(algorithms, variants string) ([]variant, error) {
	vs, err := algorithmVariants(algorithms)
	if err != nil {
		return nil, err
	}
	more, err := parseVariants(variants)
	if err != nil {
		return nil, err
	}
	vs = append(vs, more...)
	seen := map[string]bool{}
	for _, v := range vs {
		if seen[v.Name] {
			return nil, fmt.Errorf("variant %s named twice", v.Name)
		}
		seen[v.Name] = true
	}
	if len(vs) == 0 {
		return nil, errors.New("no variant to run")
	}
	return vs, nil
}

// chooseBaseline returns the name of the variant every other one is
// compared with: name if given (it must be one of vs), else mosa when it
// is among vs, else the first variant.
func chooseBaseline(vs []variant, name string) (string, error) {
	for _, v := range vs {
		if name == "" && v.Name == "mosa" || name != "" && v.Name == name {
			return v.Name, nil
		}
	}
	if name != "" {
		return "", fmt.Errorf("-baseline %s is not among the variants (%s)", name, strings.Join(variantNames(vs), ", "))
	}
	if len(vs) == 0 {
		return "", errors.New("no variant")
	}
	return vs[0].Name, nil
}

func variantNames(vs []variant) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Name
	}
	return out
}
