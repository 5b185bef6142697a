package gate

import (
	"encoding/json"
	"io"
	"net/url"
)

// SARIF 2.1.0, the subset cling writes: one run of one tool with its rules
// and one result per finding, located relative to the repository root.
type (
	sarifLog struct {
		Version string     `json:"version"`
		Schema  string     `json:"$schema"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID               string       `json:"id"`
		Name             string       `json:"name"`
		ShortDescription sarifMessage `json:"shortDescription"`
		FullDescription  sarifMessage `json:"fullDescription"`
		DefaultConfig    sarifConfig  `json:"defaultConfiguration"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID    string          `json:"ruleId"`
		RuleIndex int             `json:"ruleIndex"`
		Level     string          `json:"level"`
		Message   sarifMessage    `json:"message"`
		Locations []sarifLocation `json:"locations"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
	}
)

// SARIFSchema is the JSON schema of the SARIF files cling writes.
const SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// sarifRules are the rules of the findings, in ruleIndex order.
var sarifRules = []sarifRule{
	{
		ID: RuleUncoveredBranch, Name: "UncoveredCoupledBranch",
		ShortDescription: sarifMessage{"A coupled branch the change touches is not covered by the tests."},
		FullDescription: sarifMessage{"A coupled branch (call site s, caller branch r, callee branch e) is covered when a test takes r " +
			"and then e in a call made at s. This one's call site, caller branch or callee branch lies on a changed line, " +
			"and no test of the caller package covers it."},
		DefaultConfig: sarifConfig{"warning"},
	},
	{
		ID: RuleUndetectedMutant, Name: "UndetectedMutant",
		ShortDescription: sarifMessage{"An interface mutant on a changed line is not detected by the tests."},
		FullDescription: sarifMessage{"The mutant changes what the callee returns, or a call of the caller into the callee, on a changed line; " +
			"no test of the two packages fails with it (survived) or none reaches it (not covered)."},
		DefaultConfig: sarifConfig{"warning"},
	},
}

// WriteSARIF writes the findings of the report as a SARIF 2.1.0 log for
// code scanning.
func WriteSARIF(w io.Writer, rep *Report) error {
	index := map[string]int{}
	for i, r := range sarifRules {
		index[r.ID] = i
	}
	run := sarifRun{
		Tool:    sarifTool{Driver: sarifDriver{Name: "cling", InformationURI: "https://github.com/cling-go/cling", Rules: sarifRules}},
		Results: []sarifResult{},
	}
	for _, f := range rep.Findings {
		run.Results = append(run.Results, sarifResult{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: "warning", Message: sarifMessage{f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: (&url.URL{Path: f.File}).String(), URIBaseID: "%SRCROOT%"},
				Region:           sarifRegion{StartLine: f.Line, StartColumn: f.Col},
			}}},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Version: "2.1.0", Schema: SARIFSchema, Runs: []sarifRun{run}})
}
