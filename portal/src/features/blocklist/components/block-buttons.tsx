// "Block this HWID" / "Block this IP" beside a validation attempt: one click adds a block
// rule for the value, scoped to the license or its whole product (chosen once above the list).
import { SelectField } from '../../../components/field';
import type { BlocklistRule, BlocklistRuleInput } from '../../../types/api';

export type BlockScope = 'license' | 'product';

export function BlockScopePicker({ value, onChange }: { value: BlockScope; onChange: (scope: BlockScope) => void }) {
  return (
    <div className="form form-inline">
      <SelectField label="Block buttons apply to" value={value} onChange={(e) => onChange(e.target.value as BlockScope)} hint="A block refuses every later validation from that value, before anything else is checked.">
        <option value="license">This license</option>
        <option value="product">Every license of this product</option>
      </SelectField>
    </div>
  );
}

/** The rule a button adds. */
export function blockRule(type: BlocklistRule['type'], value: string, scope: BlockScope, license: { id: string; productId: string }): BlocklistRuleInput {
  return {
    type,
    value,
    mode: 'block',
    ...(scope === 'license' ? { licenseId: license.id } : { productId: license.productId }),
    note: `Blocked from the validation history of ${license.id}`,
  };
}

export function BlockButtons({ hwid, ip, busy, onBlock }: { hwid: string; ip: string; busy: boolean; onBlock: (type: 'hwid' | 'ip', value: string) => void }) {
  return (
    <>
      <button type="button" className="button button-small" disabled={busy} onClick={() => onBlock('hwid', hwid)}>
        Block this HWID
      </button>{' '}
      <button type="button" className="button button-small" disabled={busy} onClick={() => onBlock('ip', ip)}>
        Block this IP
      </button>
    </>
  );
}
