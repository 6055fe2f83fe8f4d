import { escapeHtml } from '../../core/http/html-page';
import { redirectUriProblem } from './register.service';

describe('redirectUriProblem', () => {
  it.each(['https://app.example.test/cb', 'https://app.example.test:8443/cb?x=1', 'http://127.0.0.1/cb', 'http://127.0.0.1:9000/', 'http://[::1]:8080/cb', 'http://localhost/cb'])(
    'accepts %s',
    (uri) => expect(redirectUriProblem(uri)).toBeNull(),
  );

  it.each([
    '',
    'https://',
    '/relative',
    'app.example.test/cb',
    'http://app.example.test/cb',
    'http://127.0.0.2/cb',
    'http://localhost.evil.example/cb',
    'https://app.example.test/cb#x',
    'https://app.example.test/cb#',
    'https://u:p@app.example.test/cb',
    'https://app.example.test/c b',
    'javascript:alert(1)',
    'data:text/html,hi',
    'com.example.app:/cb',
    `https://app.example.test/${'a'.repeat(2000)}`,
  ])('refuses %j', (uri) => expect(redirectUriProblem(uri)).toEqual(expect.any(String)));
});

describe('escapeHtml', () => {
  it('escapes every character that can break out of text or an attribute', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\`=`)).toBe('&#60;a href&#61;&#34;x&#34; onclick&#61;&#39;y&#39;&#62;&#38;&#96;&#61;');
    expect(escapeHtml(undefined)).toBe('');
  });
});
