import { describe, expect, it } from 'vitest';
import { ContactPage, FORM_SLOTS } from '../../functions/contact/contact-page.ts';

const template = `<input value="${FORM_SLOTS.token}"><input value="${FORM_SLOTS.formToken}"><p>${FORM_SLOTS.summary}</p><input value="${FORM_SLOTS.value('name')}" aria-invalid="${FORM_SLOTS.invalid('name')}"><p>${FORM_SLOTS.error('name')}</p><textarea>${FORM_SLOTS.value('message')}</textarea><p>${FORM_SLOTS.error('message')}</p>`;

describe('ContactPage', () => {
  it('fills every slot, escaping what the visitor typed', () => {
    const html = new ContactPage(template).render({
      token: 'tok',
      formToken: 'fill<time>',
      summary: 'Fix <these>',
      values: { name: '"><script>x</script>', message: '</textarea><b>' },
      errors: [{ field: 'name', problem: 'must not be empty' }],
    });
    expect(html).not.toContain('{{');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('</textarea><b>');
    expect(html).toContain('value="&#34;&#62;&#60;script&#62;x&#60;/script&#62;" aria-invalid="true"');
    expect(html).toContain('<p>Name must not be empty.</p>');
    expect(html).toContain('<p>Fix &#60;these&#62;</p>');
    expect(html).toContain('<input value="fill&#60;time&#62;">');
  });

  it('renders an empty form with the tokens it is given', () => {
    const html = new ContactPage(template).render({ token: 'key-1', formToken: 'fill-1' });
    expect(html).toContain('<input value="key-1"><input value="fill-1">');
    expect(html).toContain('aria-invalid="false"');
    expect(html).not.toContain('{{');
  });
});
