/**
 * A change waiting for one target (`--atom`, `--webhook`, one `--notify` URL): written in
 * the batch that commits the change, deleted once the target took it (src/io/outbox). Its key
 * is `TARGET/WHEN-SEQ`, so that a target's deliveries list in the order they were committed.
 */
export interface Delivery {
	v: number;
	/** The target's id (a hash of its URL or path, no secret in it): the key's first part. */
	target: string;
	/** The target as it may be shown: its kind and its URL with the secrets hidden. */
	shown: string;
	/** When the change was committed (epoch ms, wall clock): what `--delivery-max-age` counts from. */
	at: number;
	/** What the target is sent: the notification, the webhook's entry, the Atom entry. */
	payload: unknown;
}
