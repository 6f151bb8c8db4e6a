import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// One exported name, one meaning: a name that src/ defines and exports in two files means
// two things to whoever imports it (issue 48 found `DueEntry`, `Candidate`, `GROUP`, …).
// Re-exports (`export { x } from`, `export *`) pass on the one definition and are fine.
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = path.join(ROOT, 'src');

/** Every .ts file under `dir`, with its path. */
const sources = async (dir: string): Promise<string[]> =>
	(await readdir(dir, { recursive: true })).filter((file) => file.endsWith('.ts')).map((file) => path.join(dir, file));

const exported = (node: ts.Node): boolean =>
	ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);

/** The names a file imports: `export { name }` of one of them passes another file's definition on. */
function imported(file: ts.SourceFile): Set<string> {
	const names = new Set<string>();
	for (const statement of file.statements) {
		const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
		if (clause?.name) names.add(clause.name.text);
		if (clause?.namedBindings && ts.isNamedImports(clause.namedBindings)) for (const element of clause.namedBindings.elements) names.add(element.name.text);
		if (clause?.namedBindings && ts.isNamespaceImport(clause.namedBindings)) names.add(clause.namedBindings.name.text);
	}
	return names;
}

/** The names a file defines and exports itself: declarations marked `export`, and `export { local as name }` of a local (not imported) binding. */
function definedExports(file: ts.SourceFile): string[] {
	const names: string[] = [];
	const imports = imported(file);
	for (const statement of file.statements) {
		if (ts.isExportDeclaration(statement)) {
			if (statement.moduleSpecifier !== undefined || !statement.exportClause || !ts.isNamedExports(statement.exportClause)) continue;
			for (const element of statement.exportClause.elements) if (!imports.has((element.propertyName ?? element.name).text)) names.push(element.name.text);
			continue;
		}
		if (!exported(statement)) continue;
		if (ts.isVariableStatement(statement)) {
			for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
		} else if (
			(ts.isFunctionDeclaration(statement) ||
				ts.isClassDeclaration(statement) ||
				ts.isInterfaceDeclaration(statement) ||
				ts.isTypeAliasDeclaration(statement) ||
				ts.isEnumDeclaration(statement)) &&
			statement.name
		) {
			names.push(statement.name.text);
		}
	}
	return names;
}

describe('exported names', () => {
	it('gives each name exported from src/ one definition: no two files export different things under one name', async () => {
		const homes = new Map<string, Set<string>>();
		for (const file of await sources(SRC)) {
			const parsed = ts.createSourceFile(file, await readFile(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
			for (const name of definedExports(parsed)) homes.set(name, (homes.get(name) ?? new Set()).add(path.relative(SRC, file)));
		}
		const twice = [...homes].filter(([, files]) => files.size > 1).map(([name, files]) => `${name}: ${[...files].sort().join(', ')}`);
		expect(twice.sort()).toEqual([]);
		// The scan sees the exports it should: a sample of known ones, each in its one file.
		expect([...(homes.get('sweepStages') ?? [])]).toEqual([path.join('pipelines', 'sweep.ts')]);
		expect([...(homes.get('Task') ?? [])]).toEqual([path.join('domain', 'task', 'types.ts')]);
	});

	it('builds every stage in src/stages from (options, deps): its options first, then what it is handed, one object or one thing', async () => {
		const offenders: string[] = [];
		let stages = 0;
		for (const file of await sources(path.join(SRC, 'stages'))) {
			const parsed = ts.createSourceFile(file, await readFile(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
			for (const statement of parsed.statements) {
				if (!ts.isFunctionDeclaration(statement) || !exported(statement) || !/OperatorFunction</.test(statement.type?.getText(parsed) ?? '')) continue;
				stages++;
				const parameters = statement.parameters.map((parameter) => ({ name: parameter.name.getText(parsed), type: parameter.type?.getText(parsed) ?? '' }));
				const options = parameters.findIndex((parameter) => parameter.name === 'options' || /Options\b/.test(parameter.type));
				if (parameters.length > 2 || options > 0) offenders.push(`${statement.name?.text}(${parameters.map((parameter) => parameter.name).join(', ')})`);
			}
		}
		expect(offenders).toEqual([]);
		expect(stages).toBeGreaterThan(20);
	});
});
