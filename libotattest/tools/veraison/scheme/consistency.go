// SPDX-License-Identifier: MIT

package scheme

// The consistency of an attempt (docs/evidence.md, "Consistency of an
// attempt"): its status, path, path reason, image usage and the record's
// tag-boot flag as the firmware decides them, each path with the reasons
// it allows. The masks come from libotattest's evidence.h at build time
// (headers_gen.go); the rules are ota_attempt_check's, written again.

var pathReasons = map[uint32]uint32{
	PathNone:              PathReasonsNone,
	PathTag:               PathReasonsTag,
	PathSignature:         PathReasonsSignature,
	PathSignatureRetagged: PathReasonsRetagged,
}

// attemptInconsistency names the first rule the attempt breaks, or "".
func attemptInconsistency(a *Attempt, recordFlags uint32) string {
	open := a.Path == PathTag || (a.PathReason <= ReasonMax && (ReasonsTagOpen>>a.PathReason)&1 != 0)
	tagBoot := recordFlags&RecordFlagTagBoot != 0
	notCapable := a.PathReason == ReasonNotTagCapable
	switch {
	case (a.Status == StatusOK) != (a.Path != PathNone):
		return "its status and path disagree (accepted on no path, or refused on one)"
	case a.PathReason > ReasonMax || (pathReasons[a.Path]>>a.PathReason)&1 == 0:
		return "its path reason is not one its path allows"
	case (open || notCapable || a.PathReason == ReasonTagBootOff) && (open || notCapable) != tagBoot:
		return "its path reason or path disagrees with the record's tag-boot flag"
	case open && a.UsageFlags&CapTagBoot == 0, notCapable && a.UsageFlags&CapTagBoot != 0:
		return "its path reason or path disagrees with its image's TAG_BOOT usage"
	}
	return ""
}
