#!/bin/sh
# One-shot set-up of the MinIO store in compose.yaml (docs/deploy.md), run by the `minio-init`
# service with the minio/mc image once MinIO answers. Safe to run again:
#  - creates the bucket S3_BUCKET (kept private: Charla serves the files itself at /files/…);
#  - creates the user S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY that Charla signs in with, with a
#    policy that allows only that bucket (read, write, delete, list, multipart uploads), so the nodes
#    never hold MinIO's root credentials.
set -eu

mc alias set store http://minio:9000 "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD" >/dev/null
mc mb --ignore-existing "store/$S3_BUCKET"
mc anonymous set none "store/$S3_BUCKET"

policy=/tmp/charla-bucket-policy.json
cat >"$policy" <<JSON
{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Effect": "Allow",
      "Action": ["s3:GetBucketLocation", "s3:ListBucket", "s3:ListBucketMultipartUploads"],
      "Resource": ["arn:aws:s3:::$S3_BUCKET"]
    },
    {
      "Effect": "Allow",
      "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"],
      "Resource": ["arn:aws:s3:::$S3_BUCKET/*"]
    }
  ]
}
JSON
mc admin policy create store charla-bucket "$policy"
mc admin user add store "$S3_ACCESS_KEY_ID" "$S3_SECRET_ACCESS_KEY"
# Attaching an attached policy is refused ("already attached"): fine on a second run.
mc admin policy attach store charla-bucket --user "$S3_ACCESS_KEY_ID" || true
echo "bucket $S3_BUCKET ready for $S3_ACCESS_KEY_ID"
