// Known divergences between agentos-shell and bash: case name → reason.
//
// A listed case is still run; it is reported separately and does not fail its
// topic's test (it does count against the overall pass rate). When a listed
// case starts to match, the suite says so: remove it from here.
//
// Every entry needs a reason a reader can check: what differs and why it is
// accepted (a bash quirk not worth copying, something the VM does not have
// yet, a host-specific detail).

export const DIVERGENCES: Record<string, string> = {
};
