# Example: Geçit on ECS Fargate in eu-central-1 with Bedrock, reaching an on-prem GPU node over
# the VPC's VPN routes. Usage: docs/deployment.md ("Serverless on AWS").

module "gecit" {
  source = "../../modules/aws-gateway"

  region             = var.region
  vpc_id             = var.vpc_id
  private_subnet_ids = var.private_subnet_ids
  alb_subnet_ids     = var.alb_subnet_ids
  alb_ingress_cidrs  = var.alb_ingress_cidrs
  certificate_arn    = var.certificate_arn
  domain_name        = var.domain_name
  route53_zone_id    = var.route53_zone_id
  image              = var.image
  ecr_repository_arn = var.ecr_repository_arn
  bedrock_model_arns = var.bedrock_model_arns
  onprem_cidrs       = var.onprem_cidrs

  # Provider keys stored out of band, e.g.
  #   aws secretsmanager create-secret --name gecit/replicate-api-token --secret-string "$REPLICATE_API_TOKEN"
  # secret_env = { REPLICATE_API_TOKEN = "arn:aws:secretsmanager:eu-central-1:123456789012:secret:gecit/replicate-api-token-AbCdEf" }
}
