/**
 * A JSON Schema (draft 2020-12) made from TypeScript types with the TypeScript compiler API, for the subset
 * wsbench's result types use. scripts/result-schema.mjs writes schema/result.schema.json with it.
 *
 * Every named type (interface or type alias) reached from the root type becomes one `$defs` entry of its own
 * name, referenced by `$ref`; an interface that extends others is `allOf` its bases and its own fields. A type
 * parameter stands for its constraint (the file holds any scenario's cells). Doc comments become
 * `description`s. Objects stay open to fields beyond theirs (no `additionalProperties`), so a newer wsbench's
 * file still reads. What a type cannot say is said in JSDoc tags of the field or type:
 * - `@minimum`, `@maximum`, `@exclusiveMinimum`, `@exclusiveMaximum`, `@multipleOf` (apply to the numbers of
 *   the type: an array's items, a union's number), `@minLength`, `@maxLength`, `@pattern`, `@format` (its
 *   strings), `@minItems`, `@maxItems` (its array); `@integer`: its numbers are whole.
 * - `@const VALUE`: the field holds that value; VALUE is JSON or the name of a constant of the type's file.
 * - `@discriminator FIELD` on a union: each member is chosen by the value of FIELD (`if`/`then`), so a broken
 *   member is reported as that member's problem, not as "matches no member". Members that share a value are
 *   told apart by a field one requires and the other forbids (`field?: undefined`).
 * - `@open` on a union: a file may hold members this wsbench does not know (a newer wsbench's, a JavaScript
 *   scenario's): literals widen to their type (the known ones kept as `examples`), objects to the fields
 *   every member has.
 * Plain JavaScript: it runs before anything is compiled.
 */
import { relative } from 'node:path';
import ts from 'typescript';

const SK = ts.SyntaxKind;

/** Keywords a tag sets, by the JSON type they constrain. */
const KEYWORDS_BY_TYPE = {
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  array: ['minItems', 'maxItems'],
};
/** Tags whose value is text as written, not JSON. */
const TEXT_TAGS = new Set(['pattern', 'format']);
/** Tags a type alias may carry, read by definitionOf() rather than applied to a schema. */
const UNION_TAGS = new Set(['discriminator', 'open']);

/**
 * The schema of `rootName`, a type of `file`, and of every named type it reaches: `{ defs, constant }`,
 * where `constant(name)` reads a literal constant of `file` (SCHEMA_VERSION).
 */
export function schemaFromTypes(file, rootName) {
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts'],
    types: [],
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${file}: not found`);

  /** $defs in the order they are first reached; a name maps to null while its schema is being made. */
  const defs = new Map();
  const declarationsByName = new Map();

  const where = (node) => {
    const sourceFile = node.getSourceFile();
    const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart());
    return `${relative(process.cwd(), sourceFile.fileName)}:${line + 1}`;
  };
  const fail = (node, problem) => {
    throw new Error(`${where(node)}: ${problem}`);
  };

  function declarationOf(nameNode) {
    let symbol = checker.getSymbolAtLocation(nameNode);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    const declaration = symbol?.declarations?.[0];
    if (!declaration) fail(nameNode, `cannot find the type ${nameNode.getText()}`);
    return declaration;
  }

  /** `$ref` to the definition of a named type, made on first use. */
  function refTo(declaration) {
    const name = declaration.name.text;
    const known = declarationsByName.get(name);
    if (known && known !== declaration)
      fail(declaration, `two types are named ${name} (${where(known)}): a $defs name must be one type`);
    if (checker.getSymbolAtLocation(declaration.name).declarations.length > 1)
      fail(declaration, `${name} is declared more than once (merged declarations are not supported)`);
    if (!known) {
      declarationsByName.set(name, declaration);
      defs.set(name, null);
      defs.set(name, definitionOf(declaration));
    }
    return { $ref: `#/$defs/${name}` };
  }

  function definitionOf(declaration) {
    const tags = tagsOf(declaration);
    let schema;
    if (ts.isInterfaceDeclaration(declaration)) {
      const own = objectSchema(declaration.members);
      const bases = (declaration.heritageClauses ?? []).flatMap((clause) => clause.types);
      schema =
        bases.length === 0 ? own : { allOf: [...bases.map((base) => refTo(declarationOf(base.expression))), own] };
    } else if (ts.isTypeAliasDeclaration(declaration)) {
      if (tags.has('discriminator')) schema = discriminated(declaration, tags.get('discriminator'));
      else if (tags.has('open')) schema = open(declaration);
      else schema = translate(declaration.type);
    } else fail(declaration, `no JSON Schema for a ${SK[declaration.kind]}`);
    for (const name of tags.keys())
      if (!UNION_TAGS.has(name)) schema = withTag(schema, name, tags.get(name), declaration);
    return described(schema, declaration);
  }

  function translate(node) {
    switch (node.kind) {
      case SK.StringKeyword:
        return { type: 'string' };
      case SK.NumberKeyword:
        return { type: 'number' };
      case SK.BooleanKeyword:
        return { type: 'boolean' };
      case SK.UnknownKeyword:
        return {};
      case SK.UndefinedKeyword:
        // Only meaningful as `field?: undefined`: the field must not be there.
        return false;
      case SK.LiteralType:
        return node.literal.kind === SK.NullKeyword ? { type: 'null' } : { const: literalValue(node.literal) };
      case SK.ParenthesizedType:
        return translate(node.type);
      case SK.TypeOperator:
        if (node.operator !== SK.ReadonlyKeyword) fail(node, `no JSON Schema for ${node.getText()}`);
        return translate(node.type);
      case SK.ArrayType:
        return { type: 'array', items: translate(node.elementType) };
      case SK.TupleType:
        return {
          type: 'array',
          prefixItems: node.elements.map(translate),
          minItems: node.elements.length,
          items: false,
        };
      case SK.TypeLiteral:
        return objectSchema(node.members);
      case SK.UnionType:
        return union(node.types.flatMap((member) => literalsOf(member) ?? [translate(member)]));
      case SK.TypeReference:
        return reference(node);
      case SK.IndexedAccessType:
        return fieldOfEach(node);
      default:
        return fail(node, `no JSON Schema for ${node.getText()} (a ${SK[node.kind]})`);
    }
  }

  function literalValue(literal) {
    if (literal.kind === SK.StringLiteral) return literal.text;
    if (literal.kind === SK.NumericLiteral) return Number(literal.text);
    if (literal.kind === SK.TrueKeyword) return true;
    if (literal.kind === SK.FalseKeyword) return false;
    return fail(literal, `no JSON value for ${literal.getText()}`);
  }

  /** Literals (and null) make an enum, bare types a list of types; anything else is anyOf. */
  function union(members) {
    const isLiteral = (m) => 'const' in m || (m.type === 'null' && Object.keys(m).length === 1);
    if (members.every(isLiteral) && members.some((m) => 'const' in m))
      return { enum: members.map((m) => ('const' in m ? m.const : null)) };
    if (members.every((m) => typeof m.type === 'string' && Object.keys(m).length === 1))
      return { type: members.map((m) => m.type) };
    return { anyOf: members };
  }

  function reference(node) {
    const declaration = declarationOf(node.typeName);
    if (ts.isTypeParameterDeclaration(declaration)) {
      if (!declaration.constraint) fail(declaration, `type parameter ${declaration.name.text} has no constraint`);
      return translate(declaration.constraint);
    }
    if (program.isSourceFileDefaultLibrary(declaration.getSourceFile())) return libraryType(node);
    if (ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration)) return refTo(declaration);
    return fail(node, `no JSON Schema for ${node.getText()}`);
  }

  function libraryType(node) {
    const name = node.typeName.getText();
    const [first, second] = node.typeArguments ?? [];
    if (name === 'Readonly') return translate(first);
    if (name === 'Array' || name === 'ReadonlyArray') return { type: 'array', items: translate(first) };
    if (name === 'Record' && first.kind === SK.StringKeyword) {
      const values = translate(second);
      return Object.keys(values).length === 0 ? { type: 'object' } : { type: 'object', additionalProperties: values };
    }
    return fail(node, `no JSON Schema for ${node.getText()}`);
  }

  /**
   * The literals a union member stands for when it names a plain union of literals (`SloKind | 'failed'`), so
   * that the whole union is one enum and a wrong value is told every value it may take; null otherwise.
   */
  function literalsOf(node) {
    if (ts.isLiteralTypeNode(node)) return [translate(node)];
    if (ts.isParenthesizedTypeNode(node)) return literalsOf(node.type);
    if (ts.isUnionTypeNode(node)) {
      const parts = node.types.map(literalsOf);
      return parts.includes(null) ? null : parts.flat();
    }
    if (!ts.isTypeReferenceNode(node)) return null;
    const declaration = declarationOf(node.typeName);
    const plainAlias = ts.isTypeAliasDeclaration(declaration) && tagsOf(declaration).size === 0;
    return plainAlias && !program.isSourceFileDefaultLibrary(declaration.getSourceFile())
      ? literalsOf(declaration.type)
      : null;
  }

  /** `Union['field']`: the field's type in each member of the union, in the members' order. */
  function fieldOfEach(node) {
    const key = ts.isLiteralTypeNode(node.indexType) && node.indexType.literal;
    if (!key || !ts.isStringLiteral(key)) fail(node, `no JSON Schema for ${node.getText()}`);
    const fields = unionMembers(node.objectType).map((member) => fieldsOf(member).get(key.text));
    if (fields.includes(undefined)) fail(node, `a member of ${node.objectType.getText()} has no ${key.text}`);
    return union(fields.flatMap((field) => literalsOf(field.type) ?? [translate(field.type)]));
  }

  function objectSchema(members) {
    const properties = {};
    const required = [];
    for (const member of members) {
      if (!ts.isPropertySignature(member) || !member.type) fail(member, 'only fields with a type make a JSON object');
      const key = member.name.text;
      let schema = translate(member.type);
      for (const [name, value] of tagsOf(member)) schema = withTag(schema, name, value, member);
      properties[key] = described(schema, member);
      if (!member.questionToken) required.push(key);
    }
    return { type: 'object', properties, ...(required.length > 0 && { required }) };
  }

  /** The fields of an interface, its bases' included, or of an object type: name -> its declaration. */
  function fieldsOf(node) {
    const fields = new Map();
    for (const base of (node.heritageClauses ?? []).flatMap((clause) => clause.types))
      for (const [name, field] of fieldsOf(declarationOf(base.expression))) fields.set(name, field);
    for (const member of node.members) if (ts.isPropertySignature(member)) fields.set(member.name.text, member);
    return fields;
  }

  /** The members of a union, each an interface or an object type; a member that is itself a union is opened. */
  function unionMembers(typeNode) {
    if (ts.isParenthesizedTypeNode(typeNode)) return unionMembers(typeNode.type);
    if (ts.isUnionTypeNode(typeNode)) return typeNode.types.flatMap(unionMembers);
    if (ts.isTypeLiteralNode(typeNode)) return [typeNode];
    if (ts.isTypeReferenceNode(typeNode)) {
      const declaration = declarationOf(typeNode.typeName);
      if (ts.isTypeAliasDeclaration(declaration)) return unionMembers(declaration.type);
      if (ts.isInterfaceDeclaration(declaration)) return [declaration];
    }
    return fail(typeNode, `${typeNode.getText()} is not an object type`);
  }

  const requires = (fields, name) => fields.has(name) && !fields.get(name).questionToken;
  const forbids = (fields, name) =>
    fields.get(name)?.questionToken && fields.get(name).type?.kind === SK.UndefinedKeyword;

  /**
   * A union chosen by the value of one field: the field must be there and one of the members' values, and
   * each member applies where its value is. The conditions require the field, so a member without it
   * reports that it lacks it rather than every member's problems.
   */
  function discriminated(declaration, field) {
    const members = unionMembers(declaration.type).map((member) => {
      if (!ts.isInterfaceDeclaration(member)) fail(member, `a member of a @discriminator union must be an interface`);
      const fields = fieldsOf(member);
      const value = fields.get(field)?.type;
      if (!value || !ts.isLiteralTypeNode(value)) fail(member, `${member.name.text}.${field} must be a literal type`);
      return { declaration: member, fields, value: literalValue(value.literal) };
    });
    const branches = members.map((member) => {
      const condition = { properties: { [field]: { const: member.value } }, required: [field] };
      const absent = [];
      for (const other of members.filter((m) => m !== member && m.value === member.value)) {
        const present = [...member.fields.keys()].filter((k) => requires(member.fields, k) && forbids(other.fields, k));
        const missing = [...other.fields.keys()].filter((k) => requires(other.fields, k) && forbids(member.fields, k));
        if (present.length + missing.length === 0)
          fail(
            member.declaration,
            `${member.declaration.name.text} and ${other.declaration.name.text} share ${field} ` +
              `${JSON.stringify(member.value)}, and no field one requires and the other forbids tells them apart`,
          );
        condition.required.push(...present.filter((k) => !condition.required.includes(k)));
        absent.push(...missing.filter((k) => !absent.includes(k)));
      }
      if (absent.length > 0)
        condition.not = absent.length === 1 ? { required: absent } : { anyOf: absent.map((k) => ({ required: [k] })) };
      // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword; this object is data, never awaited.
      return { if: condition, then: refTo(member.declaration) };
    });
    return {
      type: 'object',
      properties: { [field]: { enum: [...new Set(members.map((m) => m.value))] } },
      required: [field],
      allOf: branches,
    };
  }

  /** A union a file may hold unknown members of: its literals' type, or the fields all its objects have. */
  function open(declaration) {
    const type = declaration.type;
    if (ts.isUnionTypeNode(type) && type.types.every(ts.isLiteralTypeNode))
      return widened(type.types.map(translate), declaration);
    const members = unionMembers(declaration.type).map(fieldsOf);
    const properties = {};
    const required = [];
    for (const name of members[0].keys()) {
      if (!members.every((fields) => fields.has(name))) continue;
      const fields = members.map((f) => f.get(name));
      properties[name] = described(
        widened(
          fields.map((f) => translate(f.type)),
          declaration,
        ),
        fields[0],
      );
      if (fields.every((f) => !f.questionToken)) required.push(name);
    }
    return { type: 'object', properties, ...(required.length > 0 && { required }) };
  }

  /** One schema for what `schemas` allow, their literals widened to the literal's type. */
  function widened(schemas, declaration) {
    const examples = [...new Set(schemas.filter((s) => 'const' in s).map((s) => s.const))];
    const types = new Set(schemas.map((s) => JSON.stringify('const' in s ? { type: typeof s.const } : s)));
    if (types.size > 1) fail(declaration, `@open: the members differ in more than their literals (${[...types]})`);
    return { ...JSON.parse([...types][0]), ...(examples.length > 1 && { examples }) };
  }

  function tagsOf(node) {
    const tags = new Map();
    for (const tag of ts.getJSDocTags(node)) {
      const name = tag.tagName.text;
      const text = (ts.getTextOfJSDocComment(tag.comment) ?? '').trim();
      tags.set(name, tagValue(name, text, node));
    }
    return tags;
  }

  function tagValue(name, text, node) {
    if (name === 'integer' || name === 'open') return true;
    if (name === 'discriminator' || TEXT_TAGS.has(name)) return text;
    try {
      return JSON.parse(text);
    } catch {
      if (name === 'const' && /^[A-Za-z_]\w*$/.test(text)) return constantOf(node.getSourceFile(), text, node);
      return fail(node, `@${name} ${text}: the value must be JSON`);
    }
  }

  function withTag(schema, name, value, node) {
    if (schema === false) fail(node, `@${name} on a field that must not be there`);
    if (name === 'const') return { const: value };
    if (name === 'integer') {
      const whole = (s) => {
        s.type = Array.isArray(s.type) ? s.type.map((t) => (t === 'number' ? 'integer' : t)) : 'integer';
      };
      if (!constrain(schema, ['number'], whole)) fail(node, '@integer on a type with no number');
      return schema;
    }
    const applies = Object.keys(KEYWORDS_BY_TYPE).filter((type) => KEYWORDS_BY_TYPE[type].includes(name));
    if (applies.length === 0) fail(node, `@${name} is no tag this generator knows (scripts/schema-from-types.mjs)`);
    if (!constrain(schema, applies, (s) => (s[name] = value))) fail(node, `@${name} on a type with no ${applies}`);
    return schema;
  }

  /** Applies `set` to the parts of `schema` of one of `types`, looking inside arrays and unions; true if any. */
  function constrain(schema, types, set) {
    const own = [schema.type].flat();
    if (own.some((t) => types.includes(t) || (t === 'integer' && types.includes('number')))) {
      set(schema);
      return true;
    }
    const parts = [schema.items, ...(schema.anyOf ?? [])].filter((part) => typeof part === 'object');
    return parts.map((part) => constrain(part, types, set)).includes(true);
  }

  function constantOf(sourceFile, name, node) {
    for (const statement of sourceFile.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations)
        if (declaration.name.getText() === name && declaration.initializer) {
          const initializer = declaration.initializer;
          if (ts.isNumericLiteral(initializer) || ts.isStringLiteral(initializer)) return literalValue(initializer);
        }
    }
    return fail(node, `@const ${name}: no literal constant ${name} in ${sourceFile.fileName}`);
  }

  /** `schema` with the doc comment of `node` as its description, first. */
  function described(schema, node) {
    const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
    const text = docs.length > 0 ? ts.getTextOfJSDocComment(docs[docs.length - 1].comment) : undefined;
    if (!text || schema === false) return schema;
    return { description: prose(text), ...schema };
  }

  const root = source.statements.find(
    (s) => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === rootName,
  );
  if (!root) throw new Error(`${file}: no type ${rootName}`);
  refTo(root);
  return {
    defs: Object.fromEntries(defs),
    constant: (name) => constantOf(source, name, source),
  };
}

/** A doc comment as one line of prose: the source's line breaks joined, a list item (`- `) on a line of its own. */
function prose(text) {
  let out = '';
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '') out += out === '' || out.endsWith('\n') ? '' : '\n';
    else out += out === '' || out.endsWith('\n') ? line : line.startsWith('- ') ? `\n${line}` : ` ${line}`;
  }
  return out.trim();
}
