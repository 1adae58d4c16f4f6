// The policy check a front end runs before it creates a VM, to refuse a bad
// flag or attribute up front: the kernel's own, so the two cannot disagree.
export { checkPolicy } from '../kernel/policy/types.js';
