/**
 * A snapshot of the built-in prototypes a JSON body could try to reach (`__proto__`,
 * `constructor.prototype`), to compare after hostile input: any added, removed or replaced
 * property is a pollution.
 */
const guarded = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype };

type Snapshot = Map<string, PropertyDescriptor>;

export function prototypeSnapshot(): Snapshot {
  const snapshot: Snapshot = new Map();
  for (const [owner, prototype] of Object.entries(guarded)) {
    for (const name of Reflect.ownKeys(prototype)) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
      if (descriptor) snapshot.set(`${owner}.prototype.${String(name)}`, descriptor);
    }
  }
  return snapshot;
}

/** What differs from `before`: added, removed or changed properties, by name. */
export function prototypeChanges(before: Snapshot): string[] {
  const after = prototypeSnapshot();
  const changes: string[] = [];
  for (const [name, descriptor] of after) {
    const old = before.get(name);
    if (!old) changes.push(`added ${name}`);
    else if (!sameDescriptor(old, descriptor)) changes.push(`changed ${name}`);
  }
  for (const name of before.keys()) if (!after.has(name)) changes.push(`removed ${name}`);
  return changes;
}

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return (
    Object.is(a.value, b.value) &&
    a.get === b.get &&
    a.set === b.set &&
    a.writable === b.writable &&
    a.enumerable === b.enumerable &&
    a.configurable === b.configurable
  );
}
