/** Where a command handler leaves its exit status for `main` to return. */
export interface CommandResult {
	status: number;
}
