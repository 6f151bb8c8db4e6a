import type { HostRecord } from '../../store/model/types.js';

/** Clean audits in a row after which a host's audit rate is halved, when its next run starts. */
export const CLEAN_AUDITS_TO_HALVE = 20;

/** A host's audit rate never goes below this fraction of `--audit`. */
export const AUDIT_FLOOR = 0.1;

/**
 * The rate at which a host's 304s are audited: its own rate (`auditRate` on its record),
 * kept within [`--audit` × AUDIT_FLOOR, `--audit`]; `--audit` itself while it has none.
 * `--audit 0` turns audits off for every host.
 *
 * @example
 * hostAuditRate({ auditRate: 0.005 }, 0.02) // 0.005
 * hostAuditRate({ auditRate: 0.0001 }, 0.02) // 0.002, the floor
 */
export function hostAuditRate(host: Pick<HostRecord, 'auditRate'>, auditRate: number): number {
	const own = host.auditRate;
	if (own === undefined || own >= auditRate) return auditRate;
	return Math.max(own, auditRate * AUDIT_FLOOR);
}

/**
 * The host as a new run starts with it: after CLEAN_AUDITS_TO_HALVE clean audits in a row,
 * half the rate it had (not below the floor), and a new streak. Lowered only between runs, so
 * that a run samples each host at one rate throughout: a host can't earn a lower rate in the
 * middle of the run in which it is caught.
 *
 * @example
 * lowerAuditRate({ ...host, cleanAudits: 20 }, 0.02) // { ...host, auditRate: 0.01, cleanAudits: 0 }
 */
export function lowerAuditRate(host: HostRecord, auditRate: number): HostRecord {
	if (!(auditRate > 0) || (host.cleanAudits ?? 0) < CLEAN_AUDITS_TO_HALVE) return host;
	return { ...host, auditRate: Math.max(auditRate * AUDIT_FLOOR, hostAuditRate(host, auditRate) / 2), cleanAudits: 0 };
}

/**
 * Counts one audit's outcome on a host record being built (in place): a clean audit adds to
 * the streak; a lie puts the host back at the full `--audit` rate at once, with no streak.
 */
export function countAudit(h: HostRecord, outcome: 'honest' | 'lied'): void {
	if (outcome === 'lied') {
		delete h.auditRate;
		delete h.cleanAudits;
	} else {
		h.cleanAudits = (h.cleanAudits ?? 0) + 1;
	}
}
