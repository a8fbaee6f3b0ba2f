import { describe, expect, it } from 'vitest';
import { redact } from '../src/redact.js';

describe('redacting pasted text', () => {
  it.each([
    ['Authorization: Bearer abc.def-123456789', 'Authorization: Bearer [redacted]'],
    ['curl -H "authorization: basic YWRtaW46c2VjcmV0"', 'curl -H "authorization: basic [redacted]"'],
    ['postgres://devtron:S3cr3t!pw@postgresql-postgresql:5432/orchestrator', 'postgres://devtron:[redacted]@postgresql-postgresql:5432/orchestrator'],
    ['PG_PASSWORD=hunter22 next', 'PG_PASSWORD=[redacted] next'],
    ['  ADMIN_PASSWORD: YWRtaW4xMjM0NTY=', '  ADMIN_PASSWORD: [redacted]'],
    ['{"password":"p@ss","user":"admin"}', '{"password":"[redacted]","user":"admin"}'],
    ['secrets.BLOB_STORAGE_S3_SECRET_KEY=wJalrXUtnFEMI/K7MDENG', 'secrets.BLOB_STORAGE_S3_SECRET_KEY=[redacted]'],
    ['token xoxb-1234-5678-abcdefgh in the log', 'token xoxb-[redacted]'.replace('xoxb-', '') + ' in the log'],
    ['key AKIAIOSFODNN7EXAMPLE used', 'key [redacted] used'],
    ['git clone https://ghp_abcdefghijklmnopqrstuvwxyz123456@github.com/org/repo', 'git clone https://[redacted]@github.com/org/repo'],
    ['id_token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJlMTIz', 'id_token=[redacted]'],
    // Found by a newcomer's try: shown back in a match's evidence before.
    ['PGPASSWORD=Pg5ecretPw psql -h db -c "DROP DATABASE orders"', 'PGPASSWORD=[redacted] psql -h db -c "DROP DATABASE orders"'],
    ['argocd login cd.example.com --username admin --password Sup3rS3cret', 'argocd login cd.example.com --username admin --password [redacted]'],
    ['the admin password is Sup3rS3cret! and it fails', 'the admin password is [redacted] and it fails'],
    ['AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', '[redacted] [redacted]'],
    // Found by a hostile paster's try: a line shown back as the fix already applied.
    ['- --kubelet-insecure-tls --password="Hunter 2 secret" --v=2', '- --kubelet-insecure-tls --password="[redacted]" --v=2'],
    ["  password: 'correct horse battery'", "  password: '[redacted]'"],
    ['{"token": "abc def ghi", "user": "admin"}', '{"token": "[redacted]", "user": "admin"}'],
    ['DB_PASS=Hunter2secret MYSQL_PWD=Hunter2secret next', 'DB_PASS=[redacted] MYSQL_PWD=[redacted] next'],
    // A registry login's `-p` is its password; mysql glues the password to `-p`. Left by the last try: "-p is ambiguous".
    ['$ docker login -u ci -p Hunter2secret registry.acme.io', '$ docker login -u ci -p [redacted] registry.acme.io'],
    ['helm registry login harbor.acme.io -u admin -p Harbor12345 --insecure', 'helm registry login harbor.acme.io -u admin -p [redacted] --insecure'],
    ['sudo podman login quay.io -u bot -p "s3cr3t pass"', 'sudo podman login quay.io -u bot -p "[redacted]"'],
    ['mysql -h db -u root -pHunter2secret orders', 'mysql -h db -u root -p[redacted] orders'],
    // Found by the next try: other logins, glued and quoted forms, camelCase keys, schemes, empty user names.
    ['docker login -u ci -pSECRET2bbb reg.example.com: unauthorized', 'docker login -u ci -p[redacted] reg.example.com: unauthorized'],
    ['docker login -u ci -p=SECRET2bbb reg.example.com', 'docker login -u ci -p=[redacted] reg.example.com'],
    ['+ oc login -u kubeadmin -p SECRET8aaa https://api.crc.testing:6443; psql -c x', '+ oc login -u kubeadmin -p [redacted] https://api.crc.testing:6443; psql -c x'],
    ['az acr login -n reg -u app -p SECRETaz1', 'az acr login -n reg -u app -p [redacted]'],
    ['run: "docker login -u ci -p SECRETq1 reg.io"', 'run: "docker login -u ci -p [redacted] reg.io"'],
    ['x=$(docker login -u ci -p SECRETq2 reg.io)', 'x=$(docker login -u ci -p [redacted] reg.io)'],
    ['make build;docker login -u ci -p SECRETq3 reg.io', 'make build;docker login -u ci -p [redacted] reg.io'],
    ['docker.exe login -u ci -p SECRETq4 reg.io', 'docker.exe login -u ci -p [redacted] reg.io'],
    // A Windows path with both separators (found reading the change: the program's name was cut at the wrong place).
    ['C:/tools\\mysql.exe -u root -pSECRETq5 orders', 'C:/tools\\mysql.exe -u root -p[redacted] orders'],
    ["mysql -u root -p'my SECRET21x' -e 'drop database x'", "mysql -u root -p'[redacted]' -e 'drop database x'"],
    ['mysql -u root -p"SECRET 66" orders', 'mysql -u root -p"[redacted]" orders'],
    ['sshpass -p SECRETssh ssh root@db', 'sshpass -p [redacted] ssh root@db'],
    ['redis-cli -h redis -a SECRETredis ping', 'redis-cli -h redis -a [redacted] ping'],
    ['mongosh -u admin -p SECRETmongo', 'mongosh -u admin -p [redacted]'],
    ['curl -u admin:SECRET73 https://x', 'curl -u admin:[redacted] https://x'],
    ['curl --user admin:SECRET74 https://x', 'curl --user admin:[redacted] https://x'],
    ['  clientSecret: SECRET29x', '  clientSecret: [redacted]'],
    ['adminPassword: SECRETap accessToken: SECRETat', 'adminPassword: [redacted] accessToken: [redacted]'],
    ['  DB_PASS: SECRETdbp', '  DB_PASS: [redacted]'],
    ["PGPASSWORD='SECRET24ccc' psql -h db", "PGPASSWORD='[redacted]' psql -h db"],
    ['PGPASSWORD="SECRET24ddd" psql -h db', 'PGPASSWORD="[redacted]" psql -h db'],
    ['{"msg":"PGPASSWORD=\\"SECRETpg\\" psql: ERROR"}', '{"msg":"PGPASSWORD=\\"[redacted]\\" psql: ERROR"}'],
    ["argocd login cd --password 'SEC RET'", "argocd login cd --password '[redacted]'"],
    ['argocd login cd --password "SECRETpw"', 'argocd login cd --password "[redacted]"'],
    ['Authorization: Token SECRET27abc', 'Authorization: Token [redacted]'],
    ['url redis://:SECRETr@redis:6379/0', 'url redis://:[redacted]@redis:6379/0'],
    ['    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=', '    client-key-data: [redacted]'],
    // Left by the try, now redacted: a YAML value with a space, a password holding '@', a password piped into a login.
    ['  password: hunter 2x', '  password: [redacted]'],
    ['https://deploy:p@ss@git.acme.io/org/repo.git', 'https://deploy:[redacted]@git.acme.io/org/repo.git'],
    ['echo SECRETpipe | docker login -u ci --password-stdin reg.io', 'echo [redacted] | docker login -u ci --password-stdin reg.io'],
    ["echo 'SECRET pipe' | helm registry login reg.io -u ci --password-stdin", "echo '[redacted]' | helm registry login reg.io -u ci --password-stdin"],
    // The second attacker's try: any long flag that ends in the word, other keys and headers, token formats, key blocks.
    ['redis-cli -h r --pass Zq9Sekret7y ping', 'redis-cli -h r --pass [redacted] ping'],
    ['argocd app list --auth-token Zq9Sekret7y', 'argocd app list --auth-token [redacted]'],
    ['az ad sp create --client-secret Zq9Sekret7y', 'az ad sp create --client-secret [redacted]'],
    ['kubectl create secret docker-registry r --docker-username=u --docker-password Zq9Sekret7y', 'kubectl create secret docker-registry r --docker-username=u --docker-password [redacted]'],
    ['skopeo copy --src-creds u:Zq9Sekret7y docker://a docker://b', 'skopeo copy --src-creds [redacted] docker://a docker://b'],
    ['aws configure set aws_secret_access_key Zq9Sekret7y', 'aws configure set aws_secret_access_key [redacted]'],
    ['kubectl create secret generic db --from-literal=pass=Zq9Sekret7y', 'kubectl create secret generic db --from-literal=pass=[redacted]'],
    ['curl -uadmin:Zq9Sekret7y https://x', 'curl -uadmin:[redacted] https://x'],
    ['DbPassword: Zq9Sekret7y ClientSecret=Zq9Sekret7y', 'DbPassword: [redacted] ClientSecret=[redacted]'],
    ['passphrase: Zq9Sekret7y', 'passphrase: [redacted]'],
    ['{"auths":{"reg.io":{"identitytoken":"Zq9Sekret7y"}}}', '{"auths":{"reg.io":{"identitytoken":"[redacted]"}}}'],
    ['Cookie: sessionid=Zq9Sekret7y; csrftoken=abc', 'Cookie: [redacted]'],
    ['{"password":"ab\\"Zq9Sekret7y"}', '{"password":"[redacted]"}'],
    [':password => "Zq9Sekret7y"', ':password => "[redacted]"'],
    ['key AIzaSyA1234567890abcdefghijklmnopqrstuv used', 'key [redacted] used'],
    ['sk_live_51Habcdefghijklmnop and glrt-abcdefghijklmnop12 and xoxe-1-abcdefghijkl', '[redacted] and [redacted] and [redacted]'],
    ['-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF9xyzZq9Sekret7y\n-----END PGP PRIVATE KEY BLOCK-----', '-----BEGIN PRIVATE KEY----- [redacted] -----END PRIVATE KEY-----'],
    // The third attacker's try: a token as the positional word after a login verb, what a herestring feeds a login.
    ['vault login s.AbCdEf123456', 'vault login [redacted]'],
    ['vault login -no-print -address https://vault:8200 hvs.CAESIZq9Sekret7y', 'vault login -no-print -address https://vault:8200 [redacted]'],
    ['snyk auth 0d9f-Zq9Sekret7y', 'snyk auth [redacted]'],
    ['ngrok config add-authtoken 2aZq9Sekret7y', 'ngrok config add-authtoken [redacted]'],
    ['cf auth admin Zq9Sekret7y', 'cf auth admin [redacted]'],
    ['gh auth login --with-token <<< Zq9Sekret7y', 'gh auth login --with-token <<< [redacted]'],
    ['vault login <<<Zq9Sekret7y', 'vault login <<<[redacted]'],
    // htpasswd's password is its last positional with -b; openssl's -k is a password, its -K the raw key.
    ['htpasswd -b .htpasswd admin Zq9Sekret7y', 'htpasswd -b .htpasswd admin [redacted]'],
    ['htpasswd -nb admin Zq9Sekret7y', 'htpasswd -nb admin [redacted]'],
    ['htpasswd -B -C 10 -bc /etc/nginx/.htpasswd admin "Zq9 Sekret7y" | tee x', 'htpasswd -B -C 10 -bc /etc/nginx/.htpasswd admin "[redacted]" | tee x'],
    ['openssl enc -aes-256-cbc -k Zq9Sekret7y -in a', 'openssl enc -aes-256-cbc -k [redacted] -in a'],
    ['openssl enc -aes-256-cbc -K 00112233445566778899aabbccddeeff -iv 0a -in a', 'openssl enc -aes-256-cbc -K [redacted] -iv 0a -in a'],
    // A key whose last dotted part ends in a secret's word: helm's --set lists, ansible's extra vars, camelCase keys.
    ['helm upgrade x . --set x.dbPass=Zq9Sekret7y', 'helm upgrade x . --set x.dbPass=[redacted]'],
    ['helm upgrade x . --set a=1,global.rootpassword=Zq9\\,Sekret7y,b=2', 'helm upgrade x . --set a=1,global.rootpassword=[redacted],b=2'],
    ['ansible-playbook site.yml -e "a=1 dbpass=Zq9Sekret7y b=2"', 'ansible-playbook site.yml -e "a=1 dbpass=[redacted] b=2"'],
    // A quoted --set value holds spaces: its words after the first are the value's too.
    ['helm upgrade x . --set "a=1,db.pass=Zq9 Sekret7y,b=2" --set c=3', 'helm upgrade x . --set "a=1,db.pass=[redacted],b=2" --set c=3'],
    ['helm upgrade x . --set "db.password=Zq9 Sekret7y"', 'helm upgrade x . --set "db.password=[redacted]"'],
    ['globalSecretKey: Zq9Sekret7y adminPwd=Zq9Sekret7y', 'globalSecretKey: [redacted] adminPwd=[redacted]'],
    // A URL's query credential (an API key, a signed URL's signature), its pairs after it kept.
    ['GET https://api.acme.io/v1/a?key=Zq9Sekret7y&limit=5', 'GET https://api.acme.io/v1/a?key=[redacted]&limit=5'],
    ['https://acct.blob.core.windows.net/logs/a.gz?sv=2021-06-08&ss=b&sp=r&sig=Zq9Sekret7y%2B%3D', 'https://acct.blob.core.windows.net/logs/a.gz?sv=2021-06-08&ss=b&sp=r&sig=[redacted]'],
    ['https://b.s3.amazonaws.com/k?X-Amz-Date=20240101T000000Z&X-Amz-Signature=0f1e2d3c4b5a6978Zq9Sekret7y', 'https://b.s3.amazonaws.com/k?X-Amz-Date=20240101T000000Z&X-Amz-Signature=[redacted]'],
    ['https://b.s3.amazonaws.com/k?X-Amz-Credential=AKIAZq9Sekret7y%2F20240101&X-Amz-Date=20240101T000000Z', 'https://b.s3.amazonaws.com/k?X-Amz-Credential=[redacted]&X-Amz-Date=20240101T000000Z'],
    ['<a href="/d?id=1&amp;sig=Zq9Sekret7y">', '<a href="/d?id=1&amp;sig=[redacted]">'],
    // A connection string's value runs to its ';'.
    ['Server=db;Database=app;User Id=sa;Password=Zq9 Sekret7y;Encrypt=true', 'Server=db;Database=app;User Id=sa;Password=[redacted];Encrypt=true'],
    ['BlobEndpoint=https://acct.blob.core.windows.net/;SharedAccessSignature=sv=2020-08-04&ss=b&sig=Zq9Sekret7y', 'BlobEndpoint=https://acct.blob.core.windows.net/;SharedAccessSignature=[redacted]'],
    // A webhook whose path is its secret; a token as a URL's user.
    ['POST https://hooks.slack.com/services/T0001/B0001/Zq9Sekret7y failed', 'POST https://hooks.slack.com/services/[redacted] failed'],
    ['https://discord.com/api/webhooks/123456789/Zq9Sekret7y-abc', 'https://discord.com/api/webhooks/123456789/[redacted]'],
    ['https://outlook.office.com/webhook/a1b2@c3d4/IncomingWebhook/Zq9Sekret7y/e5f6', 'https://outlook.office.com/webhook/[redacted]'],
    ['"https://acme.webhook.office.com/webhookb2/a1b2@c3d4/IncomingWebhook/Zq9Sekret7y"', '"https://acme.webhook.office.com/webhookb2/[redacted]"'],
    ['git clone https://ghp_Zq9Sekret7y@github.com/org/repo.git', 'git clone https://[redacted]@github.com/org/repo.git'],
    ['git clone https://Zq9Sekret7yZq9Sekret7yZq9Sekret7yZq9Sekret7y@dev.azure.com/org/_git/repo', 'git clone https://[redacted]@dev.azure.com/org/_git/repo'],
    // A short JWT, an unsigned one; a registry's or a TLS key's file as a Secret holds it.
    ['session eyJhbGciOi.eyJzdWIi.c2ln expired', 'session [redacted] expired'],
    ['x-auth eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0. refused', 'x-auth [redacted] refused'],
    ['  .dockerconfigjson: eyJhdXRocyI6eyJyZWcuaW8iOnt9fX0=', '  .dockerconfigjson: [redacted]'],
    ['{".dockercfg":"eyJyZWcuaW8iOnt9fQ=="}', '{".dockercfg":"[redacted]"}'],
    ['  tls.key: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0t', '  tls.key: [redacted]'],
    // Found by a fresh-clone try: Slack's client and cookie tokens, Docker's and GitLab agent's, a hex token as a URL's user with a password after it.
    ['xoxc-123456789012-1234567890123-Zq9Sekret7y and d=xoxd-Zq9Sekret7y%2Babc%3D;', '[redacted] and d=[redacted];'],
    ['used dckr_pat_Zq9Sekret7yZq9Sekret7y', 'used [redacted]'],
    ['agent glagent-Zq9Sekret7yZq9Sekret7yabcd registered', 'agent [redacted] registered'],
    // Found by an attacker's try: Vault's own token formats (service, batch, recovery), bare in a log line.
    ['vault token lookup hvs.CAESIJq9Sekret7yZq9Sekret7yabcd failed', 'vault token lookup [redacted] failed'],
    ['batch hvb.AAAAAQJq9Sekret7yZq9Sekret7yabcd and hvr.Zq9Sekret7yZq9Sekret7yab', 'batch [redacted] and [redacted]'],
    ['https://0123456789abcdef0123456789abcdef01234567:x-oauth-basic@github.com/o/r', 'https://[redacted]:[redacted]@github.com/o/r'],
    // Found by the same try: flags whose value is a secret — a storage account's key, curl's cookies, a Secret's literal, a key's passphrases, --auth.
    ['az storage blob upload --account-name st --account-key Zq9Sekret7y== -f x', 'az storage blob upload --account-name st --account-key [redacted] -f x'],
    ['curl -b "session=Zq9Sekret7y; theme=dark" https://x', 'curl -b "[redacted]" https://x'],
    ['curl --cookie argocd.sid=Zq9Sekret7y https://x', 'curl --cookie [redacted] https://x'],
    ['kubectl create secret generic db --from-literal=dbpassword=Zq9Sekret7y', 'kubectl create secret generic db --from-literal=dbpassword=[redacted]'],
    ['kubectl create secret generic x --from-literal apitoken=Zq9Sekret7y --from-literal=user=bob', 'kubectl create secret generic x --from-literal apitoken=[redacted] --from-literal=user=bob'],
    ['ssh-keygen -p -P Zq9Old -N Zq9Sekret7y -f key', 'ssh-keygen -p -P [redacted] -N [redacted] -f key'],
    ['--auth dXNlcjpTdXAzclMzY3JldFB3 then', '--auth [redacted] then'],
    // Found by the same try: a value cut short — at a space in its quotes, at a comma, semicolon, quote or brace bare, at a URL password's space or slash.
    ['PGPASSWORD="correct horse battery staple" psql -h db', 'PGPASSWORD="[redacted]" psql -h db'],
    ['password=Zq9,Sekret7y next', 'password=[redacted] next'],
    ['password=Zq9;Sekret7y next', 'password=[redacted] next'],
    ["password=Zq9'Sekret7y next", 'password=[redacted] next'],
    ['password=Zq9}Sekret7y next', 'password=[redacted] next'],
    ['DB_PASSWORD=Zq9;Sekret7y next', 'DB_PASSWORD=[redacted] next'],
    ['"postgres://app:Zq9 Sekret7y@db/app" next', '"postgres://app:[redacted]@db/app" next'],
    ['DATABASE_URL postgres://app:Xy/9+kLZq9Sekret7y=@db:5432/app', 'DATABASE_URL postgres://app:[redacted]@db:5432/app'],
    // Found by the same try: structures that name the secret apart from its value — an env entry in JSON or YAML's flow form, a block's
    // second line, netrc, libpq's sslpassword (a word glued before the key), a percent-encoded query key.
    ['{"env":[{"name":"DB_PASSWORD","value":"Zq9 Sekret7y"}]}', '{"env":[{"name":"DB_PASSWORD","value":"[redacted]"}]}'],
    ['env: [{name: DB_PASSWORD, value: Zq9Sekret7y}] next', 'env: [{name: DB_PASSWORD, value: [redacted]}] next'],
    ['secret: |\n  firstpartABC\n  Zq9Sekret7y more\nnext: x', 'secret: |\n  [redacted]\n  [redacted]\nnext: x'],
    ['machine r.io login bob password Zq9Sekret7y', 'machine r.io login bob password [redacted]'],
    ['machine r.io\n  login bob\n  password Zq9Sekret7y', 'machine r.io\n  login bob\n  password [redacted]'],
    ["psql 'host=db sslpassword=Zq9Sekret7y' -c x", "psql 'host=db sslpassword=[redacted] -c x"],
    ['POST https://idp/token?client%5Fsecret=Zq9Sekret7y&x=1', 'POST https://idp/token?client%5Fsecret=[redacted]&x=1'],
  ])('%s', (input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  // Hidden before the third try already; kept here so they stay hidden.
  it.each([
    ['vault login -method=userpass username=bob password=Zq9Sekret7y', 'vault login -method=userpass username=bob password=[redacted]'],
    ['gh auth login --with-token <<< ghp_abcdefghijklmnopqrstuvwxyz123456', 'gh auth login --with-token <<< [redacted]'],
    ['PGPASSWORD=Zq9Sekret7y psql -W -h db', 'PGPASSWORD=[redacted] psql -W -h db'],
    ['openssl pkcs12 -export -passin pass:Zq9Sekret7y -passout pass:Zq9Sekret7y -out c.p12', 'openssl pkcs12 -export -passin pass:[redacted] -passout pass:[redacted] -out c.p12'],
    ['openssl enc -aes-256-cbc -pass pass:Zq9Sekret7y -in a', 'openssl enc -aes-256-cbc -pass pass:[redacted] -in a'],
    ['helm upgrade x . --set-string auth.postgresPassword=Zq9Sekret7y', 'helm upgrade x . --set-string auth.postgresPassword=[redacted]'],
    ['helm upgrade x . --set a=1,global.secretKey=Zq9Sekret7y', 'helm upgrade x . --set a=1,global.secretKey=[redacted]'],
    ['ansible-playbook site.yml -e ansible_become_pass=Zq9Sekret7y', 'ansible-playbook site.yml -e ansible_become_pass=[redacted]'],
    ['ansible-playbook site.yml --extra-vars "ansible_password=Zq9Sekret7y"', 'ansible-playbook site.yml --extra-vars "ansible_password=[redacted]"'],
    ['https://x.io/cb?access_token=Zq9Sekret7y', 'https://x.io/cb?access_token=[redacted]'],
    ['https://x.io/a?token=Zq9Sekret7y', 'https://x.io/a?token=[redacted]'],
    ['https://x.io/a?api_key=Zq9Sekret7y', 'https://x.io/a?api_key=[redacted]'],
    ['POST /oauth/token?client_id=app&client_secret=Zq9Sekret7y', 'POST /oauth/token?client_id=app&client_secret=[redacted]'],
    ['DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zq9Sekret7y+/==;EndpointSuffix=core.windows.net', 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[redacted];EndpointSuffix=core.windows.net'],
    ['Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=Zq9Sekret7y=', 'Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=[redacted]'],
    ['Server=db;User Id=sa;Password=Zq9Sekret7y;', 'Server=db;User Id=sa;Password=[redacted];'],
    ['https://x-access-token:Zq9Sekret7y@github.com/org/repo', 'https://x-access-token:[redacted]@github.com/org/repo'],
    ['https://oauth2:Zq9Sekret7y@gitlab.com/org/repo', 'https://oauth2:[redacted]@gitlab.com/org/repo'],
  ])('still hides %s', (input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  it("keeps a prompt, a flag's value, a variable, a password's source and a URL's plain user and pairs: psql -W, vault's auth method, openssl's env: and file:", () => {
    for (const line of [
      'psql -W -h db -p 5432 -U devtron orchestrator',
      'vault login -method userpass username=bob',
      'vault login -method=oidc && vault kv get secret/orchestrator',
      'vault login $VAULT_TOKEN',
      'vault login -',
      'htpasswd -c /etc/nginx/.htpasswd admin',
      'openssl rsa -in k.pem -passin env:KEYPASS -passout file:/run/pass.txt',
      'ssh://git@github.com/org/repo and https://jdoe@bitbucket.org/team/repo.git',
      'GET /api/v1/namespaces/devtroncd/pods?limit=500&continue=abc&labelSelector=app%3Dx',
      'https://maps.acme.io/js?key=${MAPS_KEY}&v=3',
      'curl -b cookies.txt -c cookies.txt https://x',
      "ssh-keygen -t ed25519 -N '' -f key",
      'kubectl create secret generic x --from-literal=username=bob',
      'helm repo add x https://x --no-auth https://charts.acme.io',
      'npm view https://registry.npmjs.org:443/@scope/pkg and docker://registry:5000/image@sha256:0a1b',
      '"https://registry.npmjs.org:443/@scope/pkg"',
      '  "password": null,',
      'machine r.io login bob password expired',
      'At login page I type login & password and click "Log in"',
      'a bypass: on, a compass: north',
    ]) {
      expect(redact(line)).toBe(line);
    }
  });

  it("hides every value under a Secret's data or stringData, whatever its key, with the kind above or below; a ConfigMap's data stays", () => {
    const secret = 'apiVersion: v1\ndata:\n  password: cGFzc3dvcmQ=\n  username: Zq9Sekret7y\n  "db-url": "Zq9Sekret7y"\nkind: Secret\nmetadata:\n  name: db';
    expect(redact(secret)).toBe('apiVersion: v1\ndata:\n  password: [redacted]\n  username: [redacted]\n  "db-url": "[redacted]"\nkind: Secret\nmetadata:\n  name: db');
    const block = 'kind: Secret\nstringData:\n  config.yaml: |\n    user: admin\n    key: Zq9Sekret7y\n  url: postgres://app@db/Zq9Sekret7y\ntype: Opaque';
    expect(redact(block)).toBe('kind: Secret\nstringData:\n  config.yaml: |\n    [redacted]\n    [redacted]\n  url: [redacted]\ntype: Opaque');
    const list = 'items:\n- apiVersion: v1\n  data:\n    LOG_LEVEL: debug\n  kind: ConfigMap\n- apiVersion: v1\n  data:\n    other: Zq9Sekret7y\n  kind: Secret';
    expect(redact(list)).toBe('items:\n- apiVersion: v1\n  data:\n    LOG_LEVEL: debug\n  kind: ConfigMap\n- apiVersion: v1\n  data:\n    other: [redacted]\n  kind: Secret');
    const json = '{\n    "data": {\n        "username": "Zq9Sekret7y",\n        "ca.crt": "Zq9Sekret7y"\n    },\n    "kind": "Secret"\n}';
    expect(redact(json)).toBe('{\n    "data": {\n        "username": "[redacted]",\n        "ca.crt": "[redacted]"\n    },\n    "kind": "Secret"\n}');
    const configMap = 'apiVersion: v1\nkind: ConfigMap\ndata:\n  username: admin\n  LOG_LEVEL: debug';
    expect(redact(configMap)).toBe(configMap);
  });

  it("keeps a Secret's name and a working directory as they are: secretName, a key's reference, PWD", () => {
    for (const text of [
      'secretName: orchestrator-tls',
      'tls:\n  - hosts:\n      - devtron.acme.io\n    secretName: orchestrator-tls',
      'secretName:\n  orchestrator-tls',
      'helm upgrade x . --set postgres.passwordSecret.name=db,image.tag=1.2',
      'auth:\n  existingSecret: pg-auth\n  secretKeyRef: db',
      'GET /login?token_url=https://idp.acme.io/token&state=1',
      'pwd=/home/user/x',
      'PWD=/app OLDPWD=/srv/app',
      '  PWD: /app',
      'docker run -e PWD=/app img',
    ]) {
      expect(redact(text)).toBe(text);
    }
    // The same keys still hide a secret; a path is a password under another key.
    expect(redact('pwd=Zq9Sekret7y secretKey: Zq9Sekret7y MYSQL_PWD=/Zq9Sekret7y')).toBe('pwd=[redacted] secretKey: [redacted] MYSQL_PWD=[redacted]');
  });

  it('hides a value under a key that says pw, alone or glued after a word: bindPW (LDAP), pw, DB_PW', () => {
    expect(redact('bindDN=cn=admin,dc=acme bindPW=Zq9Sekret7y')).toBe('bindDN=cn=admin,dc=acme bindPW=[redacted]');
    expect(redact('login user=admin pw=Zq9Sekret7y')).toBe('login user=admin pw=[redacted]');
    expect(redact('DB_PW: Zq9Sekret7y')).toBe('DB_PW: [redacted]');
    // A word that only starts with the letters is no key of a secret.
    expect(redact('pwsh=/usr/bin/pwsh')).toBe('pwsh=/usr/bin/pwsh');
  });

  it("hides a connection's password written without a scheme (user:password@host), and keeps image digests, npm aliases, mail addresses and node lines", () => {
    expect(redact('DATABASE_URL=app:Zq9Sekret7y@db.internal:5432/orchestrator')).toBe('DATABASE_URL=app:[redacted]@db.internal:5432/orchestrator');
    expect(redact('psql connecting to devtron:Zq9Sekret7y@postgresql-postgresql:5432 failed')).toBe('psql connecting to devtron:[redacted]@postgresql-postgresql:5432 failed');
    expect(redact('cannot reach admin:hunter2hunter2@localhost')).toBe('cannot reach admin:[redacted]@localhost');
    expect(redact('dial tcp: lookup ci:Zq9Sekret7y@registry.acme.io: no such host')).toBe('dial tcp: lookup ci:[redacted]@registry.acme.io: no such host');
    for (const line of [
      'image: quay.io/devtron/postgres:11.9@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'image: postgres:11.9@sha256:1234f081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      '"string-width-cjs": "npm:string-width@4.2.3"',
      'send it to mailto:oncall@acme.io',
      '07c37dfeb2352 127.0.0.1:30004@31004 slave',
      'git@github.com:org/repo.git',
      'user:${DB_PASSWORD}@db.internal:5432',
    ]) {
      expect(redact(line)).toBe(line);
    }
  });

  it('removes a private key block whole', () => {
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabcdef\n-----END RSA PRIVATE KEY-----';
    expect(redact(`tls.key: |\n${pem}\nafter`)).toBe('tls.key: |\n-----BEGIN PRIVATE KEY----- [redacted] -----END PRIVATE KEY-----\nafter');
  });

  // Found by a fresh-clone try: the scheme was hidden (as an `auth…` key's value) and the credential after it shown.
  it("hides everything after an authorization header's scheme, whatever the scheme", () => {
    for (const [input, expected] of [
      ['Authorization: OAuth Zq9Sekret7y then', 'Authorization: OAuth [redacted] then'],
      ['Authorization: SSWS 00Zq9Sekret7y', 'Authorization: SSWS [redacted]'],
      ['Authorization: Bot Zq9Sekret7y.abc', 'Authorization: Bot [redacted]'],
      ['curl -H "Authorization: Splunk 1234abcd-5678-Zq9 Sekret7y" https://x', 'curl -H "Authorization: Splunk [redacted]" https://x'],
      ['Authorization: Basic YTpi', 'Authorization: Basic [redacted]'],
      ['Authorization: Digest username="bob", response="Zq9Sekret7y" next', 'Authorization: Digest [redacted] next'],
      ['{"Authorization":"OAuth Zq9Sekret7y"}', '{"Authorization":"OAuth [redacted]"}'],
    ]) {
      expect(redact(input!)).toBe(expected);
    }
    // Slack's "Basic Information" page, as the bot's own advice about an app-level token names it.
    for (const line of ['authorization: failed to fetch the token', 'Authorization: Bearer $CI_TOKEN', 'Authorization: Basic auth is disabled', 'generate one on the app\'s "Basic Information" page → App-Level Tokens']) {
      expect(redact(line)).toBe(line);
    }
  });

  it('redacts the text of an XML element named for a secret (a settings.xml pasted with its error)', () => {
    expect(redact('<server><id>nexus</id><username>ci</username><password>Zq9Sekret7y!</password></server>')).toBe('<server><id>nexus</id><username>ci</username><password>[redacted]</password></server>');
    expect(redact('  <db:password type="plain">hunter2hunter2</db:password>')).toBe('  <db:password type="plain">[redacted]</db:password>');
    expect(redact('<apiKey>AbC123xyz789</apiKey>')).toBe('<apiKey>[redacted]</apiKey>');
    // Not a secret: an element that only starts with the word, an empty one, a reference to one.
    for (const line of ['<passwordPolicy>strict</passwordPolicy>', '<password></password>', '<password>${env.NEXUS_PASSWORD}</password>']) {
      expect(redact(line)).toBe(line);
    }
  });

  it('redacts an XML secret in a CDATA section, or named by its element\'s name or key attribute (Hibernate, .NET appSettings)', () => {
    expect(redact('<password><![CDATA[Zq9<Sekret7y]]></password>')).toBe('<password>[redacted]</password>');
    expect(redact('<property name="hibernate.connection.password">Zq9Sekret7y</property>')).toBe('<property name="hibernate.connection.password">[redacted]</property>');
    expect(redact('<property name="connection.password"><![CDATA[Zq9Sekret7y]]></property>')).toBe('<property name="connection.password">[redacted]</property>');
    expect(redact('  <add key="DbPassword" value="Zq9Sekret7y" />')).toBe('  <add key="DbPassword" value="[redacted]" />');
    expect(redact('<entry key="api.token">Zq9Sekret7y</entry>')).toBe('<entry key="api.token">[redacted]</entry>');
    expect(redact("<param name='jdbc.password' value='Zq9Sekret7y'/>")).toBe("<param name='jdbc.password' value='[redacted]'/>");
    // Not a secret: a name that only starts with the word, an empty value, a reference, an empty CDATA section.
    for (const line of ['<property name="passwordPolicy">strict</property>', '<add key="DbPassword" value="" />', '<param name="password" value="${DB_PASS}"/>', '<password><![CDATA[]]></password>', '<property name="password"></property>']) {
      expect(redact(line)).toBe(line);
    }
  });

  it('redacts a registry login carried over to its next line by a backslash', () => {
    expect(redact('docker login registry.acme.io \\\n  -u ci \\\n  -p SECRETml1')).toBe('docker login registry.acme.io \\\n  -u ci \\\n  -p [redacted]');
  });

  // Found by a fresh-clone try: the backslash was taken as the value, and the value on the next line shown.
  it("hides the value a backslash carries to the next line: a short flag's, an environment variable's, a quoted value's rest", () => {
    expect(redact('docker login -u admin -p \\\n  Zq9Sekret7y r.io')).toBe('docker login -u admin -p \\\n  [redacted] r.io');
    expect(redact('redis-cli -h r -a \\\n  Zq9Sekret7y ping')).toBe('redis-cli -h r -a \\\n  [redacted] ping');
    expect(redact('PGPASSWORD=\\\nZq9Sekret7y psql -c x')).toBe('PGPASSWORD=\\\n[redacted] psql -c x');
    expect(redact('token: "Zq9Sek\\\n  ret7y" next')).toBe('token: "[redacted]" next');
    // Not carried on, a flag at a line's end is a prompt (`mysql -p`), and the next line is its own.
    expect(redact('mysql -u root -p\nERROR 1045 (28000): Access denied')).toBe('mysql -u root -p\nERROR 1045 (28000): Access denied');
  });

  it('redacts a value on the line after its key: a YAML block, a Kubernetes env var, a flag continued by a backslash', () => {
    expect(redact('password:\n  Zq9Sekret7y')).not.toContain('Zq9Sekret7y');
    expect(redact('password: |\n  Zq9Sekret7y')).not.toContain('Zq9Sekret7y');
    expect(redact('- name: DB_PASSWORD\n  value: Zq9Sekret7y')).not.toContain('Zq9Sekret7y');
    expect(redact('- name: DB_PASSWORD\n  value: "Zq9Sekret7y"')).not.toContain('Zq9Sekret7y');
    expect(redact('docker login -u u --password \\\n  Zq9Sekret7y reg')).not.toContain('Zq9Sekret7y');
    expect(redact('mysql \\\r\n  -uroot -pZq9Sekret7y orders')).not.toContain('Zq9Sekret7y');
  });

  it('removes a key block with a dash in its body, of any kind and case', () => {
    for (const block of ['-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF-xyzZq9Sekret7y\n-----END PGP PRIVATE KEY BLOCK-----', '-----begin private key-----\nMII-EZq9Sekret7y\n-----end private key-----', '----BEGIN RSA PRIVATE KEY----\nMIIEZq9Sekret7y\n----END RSA PRIVATE KEY----']) {
      expect(redact(block)).not.toContain('Zq9Sekret7y');
    }
  });

  it('reads key names through what only looks different: full-width forms, a non-breaking space', () => {
    expect(redact('password\uff1dZq9Sekret7y')).not.toContain('Zq9Sekret7y');
    expect(redact('password:\u00a0Zq9Sekret7y')).not.toContain('Zq9Sekret7y');
  });

  // Found by a fresh-clone try: characters that show nothing, or show as Latin letters, hid a key or split a token.
  it('reads keys and tokens through what shows nothing or shows as a Latin letter: format characters, controls, colour escapes, math letters', () => {
    for (const c of ['\u2062', '\u2063', '\u180e', '\u034f', '\u00ad', '\u200d', '\u2060', '\u061c', '\ufeff', '\u{e0020}', '\u3164', '\r', '\u0007', '\u0000', '\u001b[1m']) {
      expect(redact(`pass${c}word=Zq9Sekret7y next`)).toBe('password=[redacted] next');
    }
    // However long the line, and in a token's middle.
    expect(redact(`pass\u2062word=Zq9Sekret7y ${'x'.repeat(5000)}`)).not.toContain('Zq9Sekret7y');
    expect(redact('xoxb-1234\u2063-5678-Zq9Sekret7yabc')).toBe('[redacted]');
    // Math letters read as the Latin ones they are drawn from.
    expect(redact('\u{1d5fd}\u{1d5ee}\u{1d600}\u{1d600}\u{1d604}\u{1d5fc}\u{1d5ff}\u{1d5f1}=Zq9Sekret7y')).toBe('password=[redacted]');
    // A colour escape written as JSON writes it, in a line that is no record of its own.
    expect(redact('{"msg":"x \\u001b[1mpassword\\u001b[0m: Zq9Sekret7y"} and more')).not.toContain('Zq9Sekret7y');
    expect(redact('{"msg":"x pass\\u200bword=Zq9Sekret7y"} and more')).not.toContain('Zq9Sekret7y');
    expect(redact('\u24df\u24d0\u24e2\u24e2\u24e6\u24de\u24e1\u24d3=Zq9Sekret7y')).toBe('password=[redacted]');
    // Everything else stays: accents, other scripts, a line break and its carriage return.
    for (const line of ['naïve café, 日本語, ошибка — ok', 'a\r\nb', 'tab\there']) expect(redact(line)).toBe(line);
  });

  it('reads key names through Cyrillic and Greek look-alike letters; words in those alphabets stay as they are', () => {
    // \u0440\u0430 is Cyrillic 'ра'; \u0420 Cyrillic 'Р'; \u03bf Greek 'ο'; \u0410, \u0412, \u0435, \u0430 Cyrillic 'А', 'В', 'е', 'а'.
    expect(redact('\u0440\u0430ssword=Zq9Sekret7y')).toBe('password=[redacted]');
    expect(redact('DB_\u0420ASSWORD=Zq9Sekret7y next')).toBe('DB_PASSWORD=[redacted] next');
    expect(redact('{"t\u03bfken": "Zq9Sekret7y"}')).toBe('{"token": "[redacted]"}');
    expect(redact('\u0410uthorization: \u0412\u0435\u0430r\u0435r Zq9Sekret7y')).not.toContain('Zq9Sekret7y');
    for (const line of ['ошибка: неверный пароль для пользователя admin', 'σφάλμα: λάθος κωδικός', 'сахар and the key k0.k1… has 1,800 levels']) {
      expect(redact(line)).toBe(line);
    }
  });

  it("keeps the error's own words that follow a key-like word: failed, a status, a template position", () => {
    for (const line of [
      'failed to pull and unpack image "reg.io/app:1": failed to resolve reference "reg.io/app:1": failed to authorize: failed to fetch oauth token: 401 Unauthorized',
      'Error: UPGRADE FAILED: execution error at (orchestrator/templates/secret.yaml:12:5): database "orchestrator" is being accessed by other users',
      'server does not allow basic authentication',
      'getting credentials: exec: executable kubelogin not found',
      'authorization: forbidden: user cannot list pods',
      'msg="auth: invalid username/password"',
      'apikey=expired',
    ]) {
      expect(redact(line)).toBe(line);
    }
  });

  // Found by a fresh-clone try: every paste of the common image-pull error lost words of its own.
  it("keeps the error's own words after a key-like word: an error's word, an error sentence, a Secret's name", () => {
    for (const line of [
      'failed to fetch oauth token: unexpected status: 401 Unauthorized',
      'failed to fetch anonymous token: unexpected status: 401 Unauthorized',
      'MountVolume.SetUp failed for volume "pull" : secret: regcred is missing',
      'failed to list *v1.Secret: secrets is forbidden: User "system:serviceaccount:devtroncd:kubewatch" cannot list',
      'error getting credentials - err: exit status 1, out: ``; getting credentials: decoding stdout: invalid character',
      'auth: unable to retrieve credentials',
      'Secret: regcred (kubernetes.io/dockerconfigjson)',
      'FATAL: password: authentication failed for user "app"',
      'password: authentication failed',
      'bash: password: command not found',
      '_invalid x509 key pair tls.crt/tls.key in secret: tls: private key does not match public key_',
    ]) {
      expect(redact(line)).toBe(line);
    }
  });

  it("keeps an error line after a key whose value it is not: a sibling of an empty key, an error sentence, a key block's start", () => {
    const error = 'ERROR: database "app" is being accessed by other users';
    for (const text of [`  password:\n  ${error}`, `password:\n  ${error}`, `-----BEGIN RSA PRIVATE KEY-----\n${error}`, `token: |\n  Failed to pull image "x": 401 Unauthorized`]) {
      expect(redact(text)).toBe(text);
    }
    // On the value's own line, the words after it where an error's sentence starts, and a comment after a Secret's data value.
    expect(redact(`password:\n  Zq9Sekret7y ${error}`)).toBe(`password:\n  [redacted] ${error}`);
    expect(redact(`password: Zq9 Sekret7y ${error}`)).toBe(`password: [redacted] ${error}`);
    expect(redact(`secret: |\n  Zq9Sekret7y\n  Zq9 Sekret7y ${error}`)).toBe(`secret: |\n  [redacted]\n  [redacted] ${error}`);
    expect(redact(`kind: Secret\ndata:\n  url: cG9zZq9Sekret7y== # ${error}`)).toBe(`kind: Secret\ndata:\n  url: [redacted] # ${error}`);
    // A key block's body (base64 lines) and a value more indented than its key still go.
    expect(redact(`-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAZq9Sekret7y\nZq9Sekret7y==\n${error}`)).toBe(`-----BEGIN PRIVATE KEY----- [redacted]\n${error}`);
    expect(redact('  password:\n    Zq9Sekret7y')).toBe('  password:\n    [redacted]');
    // Only a Secret's key names an object: the same words after a password's or a token's value leave it a secret.
    expect(redact('the password: hunter is missing, token: Zq9Sekret7y is wrong')).toBe('the password: [redacted] is missing, token: [redacted] is wrong');
    // A Secret's name is words or parts joined by '-' or '.': one run of letters and digits is a secret (a GitHub client secret's hex).
    expect(redact('client secret: 0123456789abcdef0123456789abcdef01234567 is invalid')).toBe('client secret: [redacted] is invalid');
    expect(redact('secret: default-token-x2x5z is missing')).toBe('secret: default-token-x2x5z is missing');
  });

  it("removes an encrypted key pasted on one line, its headers and body, and adds no line break to the line", () => {
    expect(redact('-----BEGIN RSA PRIVATE KEY----- Proc-Type: 4,ENCRYPTED DEK-Info: AES-128-CBC,ABCD MIIEowIBAAKCAQEAZq9Sekret7y -----END RSA PRIVATE KEY----- then')).toBe('-----BEGIN PRIVATE KEY----- [redacted] -----END PRIVATE KEY----- then');
    expect(redact('-----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEAZq9Sekret7y Failed to pull image')).toBe('-----BEGIN PRIVATE KEY----- [redacted] Failed to pull image');
  });

  it('removes a private key block that was cut before its end line', () => {
    const cut = 'tls.key: |\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAsecretsecret\nabcdefSECRETline\n';
    expect(redact(cut)).not.toContain('SECRET');
    expect(redact(cut)).toContain('[redacted]');
  });

  // An attacker's (or a hurried person's) paste: the key's last line glued to a closing fence or quote, a one-line key's
  // short start, a quoted message, a key type with a digit, RFC 4716's spaced lines. Each left base64 of the key shown.
  it('removes a short or cut key fragment however it is pasted', () => {
    const cases: [string, string][] = [
      ['```\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\nQyNTUxOQAAACBz```', 'QyNTUxOQAAACBz'],
      ['```-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA```', 'MIIEowIBAAKCAQEA'],
      ['{"key": "-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\\nc2VjcmV0"}', 'c2VjcmV0'],
      ['<pre>-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBzq9Sekret7y</pre>', 'MHcCAQEEIBzq9Sekret7y'],
      ['-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1r then', 'b3BlbnNzaC1r'],
      ['&gt; -----BEGIN RSA PRIVATE KEY-----\n&gt; MIIEowIBAAKCAQEAZq9Sekret7y\n&gt; abcdefSECRETline', 'Sekret7y'],
      ['> -----BEGIN RSA PRIVATE KEY-----\n> MIIEowIBAAKCAQEAZq9Sekret7y\n> abcdefSECRETline', 'Sekret7y'],
      ['-----BEGIN SSH2 ENCRYPTED PRIVATE KEY-----\nP2/56wAAAi8AAAA3Zq9Sekret7y\n', 'Sekret7y'],
      ['---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key"\nP2/56wAAAi8AAAA3Zq9Sekret7y\n---- END SSH2 ENCRYPTED PRIVATE KEY ----', 'Sekret7y'],
    ];
    expect(cases.filter(([text, secret]) => redact(text).includes(secret)).map(([text]) => text)).toEqual([]);
    expect(redact('abcdefSECRETline')).toBe('abcdefSECRETline');
    // A PuTTY key file (.ppk), as Windows users paste it: its private lines go, its public part and MAC stay.
    const ppk = 'PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: rsa-key\nPublic-Lines: 1\nAAAAB3NzaC1yc2E\nPrivate-Lines: 2\nAAABAQCzq9Sekret7yAAAA\nZq9Sekret7y\nPrivate-MAC: 0a1b2c';
    expect(redact(ppk)).toBe('PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: rsa-key\nPublic-Lines: 1\nAAAAB3NzaC1yc2E\nPrivate-Lines: [redacted]\nPrivate-MAC: 0a1b2c');
    // What follows such a fragment and is no key's stays: the fence, a sentence, an error on its own line.
    expect(redact('```-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA```\nstill failing')).toBe('```-----BEGIN PRIVATE KEY----- [redacted]```\nstill failing');
    expect(redact('-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1r then it failed')).toBe('-----BEGIN PRIVATE KEY----- [redacted] then it failed');
    expect(redact('> -----BEGIN RSA PRIVATE KEY-----\n> MIIEowIBAAKCAQEAZq9Sekret7y\nERROR: x')).toBe('> -----BEGIN PRIVATE KEY----- [redacted]\nERROR: x');
  });

  it("keeps a `-p` that is a port or a publish flag: psql's, docker run's, mysql's capital -P", () => {
    for (const line of ['psql -h db -p 5432 -U devtron orchestrator', 'docker run -p 8080:80 nginx', 'mysql -h db -P 3306 -u root -p', 'kubectl port-forward -n devtroncd svc/devtron-service 8000:80 -p', 'docker login -u ci --password-stdin registry.acme.io', 'mysql -u root -u admin orders', 'curl -u admin https://x', 'the token expired yesterday', 'Authorization: Bearer [redacted]', 'echo $CI_TOKEN | docker login -u ci --password-stdin reg.io', 'password: ${DB_PASSWORD}', 'the key k0.k1… has 1,800 levels; ﬁne “quoted”']) {
      expect(redact(line)).toBe(line);
    }
  });

  it('keeps what is not a secret, including the error texts the matcher needs', () => {
    const log = [
      "time=\"2026-11-21T10:00:00Z\" level=error msg=\"no token provided\"",
      'password: true',
      'E1121 10:00:00 invalid username or password',
      "x509: certificate has expired or is not yet valid",
      'token: ${GIT_TOKEN}',
      'the password is wrong, or the password was changed',
      'helm upgrade --password-stdin --token-file /tmp/t',
    ].join('\n');
    expect(redact(log)).toBe(log);
  });

  it('hides a value of any length after its key, and reads each once', () => {
    const long = 'Zq9Sekret7y'.repeat(500);
    for (const [input, shown] of [
      [`password=${long}`, 'password=[redacted]'],
      [`{"token": "${long}"}`, '{"token": "[redacted]"}'],
      [`PGPASSWORD=${long} psql`, 'PGPASSWORD=[redacted] psql'],
      [`argocd login cd --password ${long}`, 'argocd login cd --password [redacted]'],
      [`  password: ${long} x`, '  password: [redacted]'],
      [`adminPassword: ${long}`, 'adminPassword: [redacted]'],
      [`Cookie: s=${long}`, 'Cookie: [redacted]'],
      [`https://u:${long}@git.acme.io/r`, 'https://u:[redacted]@git.acme.io/r'],
      [`the password is ${long} and it fails`, 'the password is [redacted] and it fails'],
      [`    client-key-data: ${long}`, '    client-key-data: [redacted]'],
    ]) {
      expect(redact(input!)).toBe(shown);
    }
    // Values that never end where a pattern would want them to, a megabyte of each: a second read per value would take minutes.
    const started = performance.now();
    const texts = ['password="' + 'a'.repeat(1_000_000), 'argocd login --password \'' + 'a'.repeat(1_000_000), 'https://u:' + 'a'.repeat(1_000_000), '-----BEGIN PRIVATE KEY-----' + 'A'.repeat(1_000_000), 'password="a '.repeat(100_000), 'helm upgrade --set ' + 'x.dbPass=a,'.repeat(100_000)];
    for (const text of texts) redact(text);
    // A bound only against the blow-up (minutes): about 2 s on a loaded two-core machine.
    expect(performance.now() - started).toBeLessThan(30_000);
  }, 60_000);

  // Found by a fresh-clone try: each `data:` line had its object's kind looked for 200 lines up and down (22 s for 1.8 MB).
  it("is fast on a paste of many `data:` lines with nothing under them", () => {
    const started = performance.now();
    redact(`kind: Secret\n${'data:\n'.repeat(50_000)}`);
    // A bound only against the blow-up (22 s for 1.8 MB): about 0.1 s here.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('is fast on a large paste with no secrets', () => {
    const big = 'level=info msg="a line of the log with words and numbers 12345"\n'.repeat(20_000);
    expect(redact(big)).toBe(big);
  });
});
