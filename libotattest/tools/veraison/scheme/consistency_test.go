// SPDX-License-Identifier: MIT

package scheme

// The scheme's copy of the consistency rules against docs/evidence.md's
// two tables ("Consistency of an attempt"), on every combination of
// status, path, path reason, TAG_BOOT usage and tag-boot flag - as
// tests/interop/consistency-doc.sh holds libotattest's ota_attempt_check
// to them.

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// reasonNames: enum ota_path_reason's names, as the doc writes them.
var reasonNames = []string{"none", "no-tag", "stale-key-version", "tag-mismatch", "tag-boot-off",
	"not-tag-capable", "key-version-above-max", "rotation", "tag-key-unavailable", "check-only",
	"image-changed"}

func docTable(t *testing.T, doc, name string) []map[string]string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<!-- ` + name + `: begin -->\n(.*?)<!-- ` + name + `: end -->`).FindStringSubmatch(doc)
	if m == nil {
		t.Fatalf("docs/evidence.md has no %s table", name)
	}
	lines := strings.Split(strings.TrimSpace(m[1]), "\n")
	cells := func(l string) []string {
		parts := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return parts
	}
	head := cells(lines[0])
	var rows []map[string]string
	for _, l := range lines[2:] {
		row := map[string]string{}
		for i, c := range cells(l) {
			row[head[i]] = c
		}
		rows = append(rows, row)
	}
	return rows
}

func docListed(cell, word string) bool {
	for _, w := range strings.Split(cell, ",") {
		if strings.TrimSpace(w) == word {
			return true
		}
	}
	return false
}

func TestAttemptRulesFollowTheDoc(t *testing.T) {
	b, err := os.ReadFile("../../../../docs/evidence.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(reasonNames) != ReasonMax+1 {
		t.Fatalf("reasonNames has %d names, enum ota_path_reason %d", len(reasonNames), ReasonMax+1)
	}
	doc := string(b)
	paths := map[string]map[string]string{}
	for _, r := range docTable(t, doc, "consistency-paths") {
		paths[r["path"]] = r
	}
	reasons := map[string]map[string]string{}
	for _, r := range docTable(t, doc, "consistency-reasons") {
		for _, w := range strings.Split(r["path reason"], ",") {
			reasons[strings.TrimSpace(w)] = r
		}
	}
	refused := 0
	for _, ok := range []bool{false, true} {
		for path := uint32(0); path < uint32(len(pathNames)); path++ {
			for reason := uint32(0); reason <= ReasonMax; reason++ {
				for _, usage := range []uint32{0, CapTagBoot} {
					for _, flag := range []uint32{0, RecordFlagTagBoot} {
						a := Attempt{Status: 0x1234, Path: path, PathReason: reason, UsageFlags: usage}
						if ok {
							a.Status = StatusOK
						}
						row, why := paths[pathNames[path]], reasons[reasonNames[reason]]
						want := (row["status"] == "OK") == ok && docListed(row["path reasons allowed"], reasonNames[reason]) && why != nil
						setOf := map[bool]string{true: "set", false: "clear"}
						for _, c := range []struct{ col, value string }{
							{"record tag-boot flag", setOf[flag != 0]}, {"image TAG_BOOT usage", setOf[usage != 0]}} {
							for _, src := range []map[string]string{row, why} {
								if src != nil && src[c.col] != "any" && src[c.col] != c.value {
									want = false
								}
							}
						}
						got := attemptInconsistency(&a, flag) == ""
						if got != want {
							t.Errorf("ok %v, path %s, reason %s, usage %d, flag %d: the doc says %v, the scheme %v",
								ok, pathNames[path], reasonNames[reason], usage, flag, want, got)
						}
						if !got {
							refused++
						}
					}
				}
			}
		}
	}
	if refused == 0 {
		t.Fatal("the rules refuse nothing")
	}
}
